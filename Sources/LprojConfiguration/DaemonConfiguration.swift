package import ClientBudget
package import LprojEngine
package import LprojLimits

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
        /// What the server, each call and each client's added strings may
        /// take: one value, which the daemon hands to each component whole.
        package var service = ServiceLimits()
        /// What one bundle may make lprojd read and hold (its largest
        /// table file among them): part of each bundle's configuration.
        package var bundle = BundleLimits()
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
