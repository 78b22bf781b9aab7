/// Every limit of the service a client meets, in one value: what the
/// server allows on the socket, what one call may ask for, and what a
/// client may add. The configuration's `limits:` section sets it; the
/// server, the service and the added strings each read their part. (A
/// bundle's limits are part of its configuration, `BundleLimits`; the
/// bytes each uid may make lprojd hold are its budget, `BudgetLimits`.)
package struct ServiceLimits: Sendable, Equatable {
    package var server = ServerLimits()
    package var requests = RequestLimits()
    package var addedStrings = AddedStringLimits()

    /// The defaults.
    package init() {}
}
