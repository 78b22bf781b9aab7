import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing
@testable import VarlinkClient

/// The client's frame decoder, checked by NIO's verifier: whatever pieces
/// the bytes come in, the same messages come out.
@Suite struct FrameDecoderTests {
    @Test func theDecoderSplitsAtNULsWhateverThePieces() throws {
        try ByteToMessageDecoderVerifier.verifyDecoder(
            stringInputOutputPairs: [
                ("{}\u{0}", [ByteBuffer(string: "{}")]),
                ("{\"a\":1}\u{0}{\"b\":2}\u{0}", [ByteBuffer(string: "{\"a\":1}"), ByteBuffer(string: "{\"b\":2}")]),
                ("\u{0}", [ByteBuffer()]),
            ],
            decoderFactory: { VarlinkFrameDecoder(maximumSize: 64) })
    }

    @Test func aMessageOverTheLimitIsAnError() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(VarlinkFrameDecoder(maximumSize: 4)))
        #expect(throws: (any Error).self) { try channel.writeInbound(ByteBuffer(string: "{\"a\":1}")) }
    }
}
