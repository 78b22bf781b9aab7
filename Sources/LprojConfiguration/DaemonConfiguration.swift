package import ClientBudget
package import LprojEngine

/// Everything lprojd is told: from its configuration file, then its options.
package struct DaemonConfiguration: Sendable, Equatable {
    /// The socket path; `nil` for the default (see ``DefaultPaths``).
    package var socketPath: String?
    /// The state directory; `nil` for the default.
    package var stateDirectory: String?
    /// The bundles to serve.
    package var bundles: [BundleConfiguration] = []
    /// Limits on what clients may ask for.
    package var limits = Limits()
    /// The log threshold (`trace` ... `critical`); `nil` for `info`.
    package var logLevel: String?
    /// Count the lookups that miss their locale's own chain (`GetMisses`).
    package var countMisses = true
    /// The directories of drop-in bundle files, first the one that wins;
    /// `nil` for the instance's defaults (``DefaultPaths/dropInDirectories(environment:instance:)``).
    package var dropInDirectories: [String]?

    /// An empty configuration.
    package init() {}

    /// Limits, with systemd's Varlink values as defaults where it has them.
    /// Byte limits on what a uid holds are checked per uid whatever the
    /// number of its connections, and again over all uids.
    package struct Limits: Sendable, Equatable {
        /// The largest message, in bytes.
        package var maximumMessageSize = 1 << 20
        /// The largest reply, in bytes.
        package var maximumReplySize = 16 << 20
        /// Open connections at most.
        package var maximumConnections = 4096
        /// Open connections per uid at most.
        package var maximumConnectionsPerUID = 256
        /// Open subscriptions per uid at most.
        package var maximumSubscriptionsPerUID = 128
        /// Bytes of unread events a subscriber may have queued.
        package var maximumSubscriberQueueBytes = 1 << 20
        /// What one bundle may make lprojd read and hold (its largest
        /// table file among them): part of each bundle's configuration.
        package var bundle = BundleLimits()
        /// Added strings per client and bundle.
        package var maximumAddedStrings = 10_000
        /// The longest added key or value, in bytes.
        package var maximumAddedStringLength = 64 << 10
        /// The longest key a lookup may name, in bytes.
        package var maximumKeyLength = 64 << 10
        /// The longest value a reply may carry, in bytes.
        package var maximumValueLength = 1 << 20
        /// Changes a uid may make to its clients' state in a second (after
        /// a burst of as many, at least 512), each an event for its subscribers.
        package var maximumChangesPerSecondPerUID = 200
        /// Seconds an unfinished message may go without a byte.
        package var incompleteMessageTimeout = 30
        /// What each uid, and all uids together, may make lprojd hold.
        package var budget = BudgetLimits.defaults

        /// The defaults.
        package init() {}
    }

    /// Adds or replaces a bundle (the last definition of a name wins, so
    /// `--bundle` overrides the file).
    package mutating func setBundle(_ bundle: BundleConfiguration) {
        bundles.removeAll { $0.name == bundle.name }
        bundles.append(bundle)
    }
}
