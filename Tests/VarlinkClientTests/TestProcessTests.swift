import LprojTestSupport
import Testing

/// What every test relies on: a write to a peer that closed is an error,
/// not a SIGPIPE that ends the whole run.
@Suite struct TestProcessTests {
    @Test func brokenPipesAreErrorsNotSignals() {
        #expect(testProcessIgnoresSIGPIPE)
    }
}
