internal import Synchronization

/// A table's values made `String`s once, on their first lookup, and kept,
/// so that a hit costs a hash and a reference count rather than an
/// allocation and a copy out of the table's arena.
///
/// One atomic word per entry (8 bytes, about 15% of a table of short
/// strings); a value's `String` is made only when it is looked up, so the
/// memory grows with the keys an app uses, not with the table. Any thread
/// may look up: a slot is filled by one compare-exchange, and a thread that
/// loses the race drops its copy and takes the one that won.
final class MadeValues: @unchecked Sendable {
    /// A made value; its address is what a slot holds.
    private final class Made {
        let value: String
        init(_ value: String) { self.value = value }
    }

    private let slots: UnsafeMutablePointer<Atomic<UInt>>
    let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<count {
            let bits = (slots + index).pointee.load(ordering: .acquiring)
            if let address = UnsafeRawPointer(bitPattern: bits) { Unmanaged<Made>.fromOpaque(address).release() }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The value at `index` (less than ``count``), made by `make` the first
    /// time it is asked for.
    @inline(__always)
    func value(at index: Int, make: (Int) -> String) -> String {
        let slot = slots + index
        if let address = UnsafeRawPointer(bitPattern: slot.pointee.load(ordering: .acquiring)) {
            return Unmanaged<Made>.fromOpaque(address).takeUnretainedValue().value
        }
        return fill(slot, with: make(index))
    }

    private func fill(_ slot: UnsafeMutablePointer<Atomic<UInt>>, with value: String) -> String {
        let made = Unmanaged.passRetained(Made(value))
        let (exchanged, winner) = slot.pointee.compareExchange(
            expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
        if exchanged { return value }
        made.release()
        return Unmanaged<Made>.fromOpaque(UnsafeRawPointer(bitPattern: winner)!).takeUnretainedValue().value
    }
}
