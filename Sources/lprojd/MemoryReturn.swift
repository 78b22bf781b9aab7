#if canImport(Glibc)
    import Glibc
#endif

/// Makes the memory lprojd frees go back to the system, so that its
/// resident size follows what its ledger holds.
///
/// glibc serves a large allocation with `mmap` and gives it back at `free`,
/// but only until the first such block is freed: it then raises its
/// threshold to that block's size, and later blocks of that size come from
/// the heap of whichever thread asked, where freed memory stays. A client
/// sending 1 MB messages made lprojd's resident size grow well past its
/// budgets that way, with nothing held. A fixed threshold turns the
/// adjustment off: a buffer of 256 KiB or more (a large message, a large
/// reply) is mapped for its use and unmapped after.
enum MemoryReturn {
    /// `M_MMAP_THRESHOLD` in `<malloc.h>`.
    private static let mmapThreshold: Int32 = -3

    static func configure() {
        // `mallopt` is glibc's; the Glibc module does not export it.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(mmapThreshold, 256 << 10)
    }
}
