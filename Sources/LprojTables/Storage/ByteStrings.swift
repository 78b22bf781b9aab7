/// A fast, non-cryptographic 64-bit hash of a byte string, reading 8 bytes at a time.
///
/// Tables are built by lprojd from files it trusts more than its clients, but
/// lookups hash client-supplied keys; the seed-free mix is fine because a
/// collision costs only a longer probe, never a wrong answer.
///
/// Package-wide and inlinable: the localizer's mirror indexes its values
/// with it, and a lookup there must not pay a call across modules.
@inlinable @inline(__always)
package func byteHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: bytes.count)
    guard let base = bytes.baseAddress else { return finalMix(hash) }
    var offset = 0
    let count = bytes.count
    while offset + 8 <= count {
        let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash &>> 29
        offset += 8
    }
    if offset < count {
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &<< shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
    }
    return finalMix(hash)
}

@inlinable @inline(__always)
package func finalMix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x &>> 33
    x = x &* 0xFF51_AFD7_ED55_8CCD
    x ^= x &>> 33
    x = x &* 0xC4CE_B9FE_1A85_EC53
    x ^= x &>> 33
    return x
}

/// Whether `count` bytes at both addresses are equal, 8 at a time: the
/// comparison a hash probe makes once the lengths agree.
@inlinable @inline(__always)
package func memoryEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ count: Int) -> Bool {
    var offset = 0
    while offset &+ 8 <= count {
        if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset &+= 8
    }
    while offset < count {
        if lhs.load(fromByteOffset: offset, as: UInt8.self) != rhs.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset &+= 1
    }
    return true
}
