internal import Synchronization

/// The ledger of every uid: what each holds of each resource, charged when
/// lprojd takes something on a client's behalf and released when it lets
/// it go.
///
/// A charge is checked against the uid's limit for the resource, the uid's
/// memory limit, the resource's limit over all uids, and the memory limit
/// over all uids, all at once under one lock: it either fits all four and
/// is added, or changes nothing and says which limit it would break. A uid
/// holding nothing has no entry, so the book's size follows the clients
/// that hold something now.
package final class BudgetBook: Sendable {
    private struct State {
        var perUID: [UInt32: BudgetUsage] = [:]
        var totals = BudgetUsage()
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
    }

    private struct Waiter {
        let id: UInt64
        let uid: UInt32
        let resource: Resource
        let threshold: Int
        let wake: @Sendable () -> Void
    }

    /// The limits charges are checked against.
    package let limits: BudgetLimits
    private let state = Mutex(State())

    /// An empty book.
    package init(limits: BudgetLimits) {
        self.limits = limits
    }

    /// The limit a uid's charge would break, if any.
    private func refusal(_ bytes: Int, of resource: Resource, uid: UInt32, _ state: State) -> BudgetError? {
        let mine = state.perUID[uid] ?? BudgetUsage()
        if let limit = limits.perUID[resource], mine[resource] + bytes > limit {
            return BudgetError(.perUID(resource), maximum: limit)
        }
        if mine.total + bytes > limits.memoryPerUID {
            return BudgetError(.memoryPerUID, maximum: limits.memoryPerUID)
        }
        if let limit = limits.total[resource], state.totals[resource] + bytes > limit {
            return BudgetError(.total(resource), maximum: limit)
        }
        if state.totals.total + bytes > limits.memory {
            return BudgetError(.memory, maximum: limits.memory)
        }
        return nil
    }

    /// Charges `bytes` of `resource` to `uid` if every limit allows it;
    /// otherwise charges nothing and returns the limit it would break.
    @discardableResult
    package func charge(_ bytes: Int, of resource: Resource, to uid: UInt32) -> BudgetError? {
        guard bytes > 0 else { return nil }
        return state.withLock { state in
            if let refusal = refusal(bytes, of: resource, uid: uid, state) { return refusal }
            state.perUID[uid, default: BudgetUsage()][resource] += bytes
            state.totals[resource] += bytes
            return nil
        }
    }

    /// Charges bytes that are already held whatever the limits say (a reply
    /// that is written, a call already read): the uid is over its budget
    /// until they are released, and is refused meanwhile.
    package func forceCharge(_ bytes: Int, of resource: Resource, to uid: UInt32) {
        guard bytes > 0 else { return }
        state.withLock { state in
            state.perUID[uid, default: BudgetUsage()][resource] += bytes
            state.totals[resource] += bytes
        }
    }

    /// Gives back bytes charged earlier; wakes whoever waits for the uid's
    /// use of the resource to fall below their threshold.
    package func release(_ bytes: Int, of resource: Resource, from uid: UInt32) {
        guard bytes > 0 else { return }
        let woken: [@Sendable () -> Void] = state.withLock { state in
            guard var usage = state.perUID[uid] else { return [] }
            let released = min(bytes, usage[resource])
            usage[resource] -= released
            state.totals[resource] -= released
            state.perUID[uid] = usage.isEmpty ? nil : usage
            guard !state.waiters.isEmpty else { return [] }
            var woken: [@Sendable () -> Void] = []
            state.waiters.removeAll { waiter in
                guard waiter.uid == uid, waiter.resource == resource, usage[resource] < waiter.threshold else { return false }
                woken.append(waiter.wake)
                return true
            }
            return woken
        }
        for wake in woken { wake() }
    }

    /// Calls `wake` once the uid holds less than `threshold` bytes of the
    /// resource (at once if it already does). Returns a token to cancel it.
    @discardableResult
    package func whenBelow(_ threshold: Int, of resource: Resource, for uid: UInt32, _ wake: @escaping @Sendable () -> Void) -> UInt64? {
        let id: UInt64? = state.withLock { state in
            if (state.perUID[uid]?[resource] ?? 0) < threshold { return nil }
            state.nextWaiter += 1
            state.waiters.append(Waiter(id: state.nextWaiter, uid: uid, resource: resource, threshold: threshold, wake: wake))
            return state.nextWaiter
        }
        if id == nil { wake() }
        return id
    }

    /// Forgets a waiter registered with ``whenBelow(_:of:for:_:)``.
    package func cancelWaiter(_ id: UInt64) {
        state.withLock { state in state.waiters.removeAll { $0.id == id } }
    }

    /// What a uid holds now.
    package func usage(of uid: UInt32) -> BudgetUsage {
        state.withLock { $0.perUID[uid] ?? BudgetUsage() }
    }

    /// What every uid holds now, by uid.
    package var usageByUID: [UInt32: BudgetUsage] {
        state.withLock { $0.perUID }
    }

    /// What all uids hold together.
    package var totals: BudgetUsage {
        state.withLock { $0.totals }
    }

    /// Charges bytes for as long as the returned token lives: for what
    /// lprojd keeps on a client's behalf beyond one call (added strings,
    /// saved rows, cache entries). Dropping the token releases them.
    package func hold(_ bytes: Int, of resource: Resource, for uid: UInt32) throws(BudgetError) -> BudgetCharge {
        if let refusal = charge(bytes, of: resource, to: uid) { throw refusal }
        return BudgetCharge(book: self, uid: uid, resource: resource, bytes: bytes)
    }
}

/// Bytes charged to a uid for as long as this token lives.
package final class BudgetCharge: Sendable {
    private let book: BudgetBook
    /// Whose they are.
    package let uid: UInt32
    /// Of what.
    package let resource: Resource
    /// How many.
    package let bytes: Int

    init(book: BudgetBook, uid: UInt32, resource: Resource, bytes: Int) {
        self.book = book
        self.uid = uid
        self.resource = resource
        self.bytes = bytes
    }

    deinit {
        book.release(bytes, of: resource, from: uid)
    }
}
