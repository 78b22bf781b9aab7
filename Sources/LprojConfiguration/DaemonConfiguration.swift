public import LprojEngine

/// Everything lprojd is told: from its configuration file, then its options.
public struct DaemonConfiguration: Sendable, Equatable {
    /// The socket path; `nil` for the default (see ``DefaultPaths``).
    public var socketPath: String?
    /// The state directory; `nil` for the default.
    public var stateDirectory: String?
    /// The bundles to serve.
    public var bundles: [BundleConfiguration] = []
    /// Limits on what clients may ask for.
    public var limits = Limits()
    /// The log threshold (`trace` ... `critical`); `nil` for `info`.
    public var logLevel: String?

    /// An empty configuration.
    public init() {}

    /// Limits, with systemd's Varlink values as defaults where it has them.
    public struct Limits: Sendable, Equatable {
        /// The largest message, in bytes.
        public var maximumMessageSize = 16 << 20
        /// Open connections at most.
        public var maximumConnections = 4096
        /// Open connections per uid at most.
        public var maximumConnectionsPerUID = 1024
        /// Bytes of unread events a subscriber may have queued.
        public var maximumSubscriberQueueBytes = 1 << 20
        /// The largest table file read.
        public var maximumTableFileSize = 64 << 20
        /// Added strings per client and bundle.
        public var maximumAddedStrings = 10_000
        /// The longest added key or value, in bytes.
        public var maximumAddedStringLength = 64 << 10

        /// The defaults.
        public init() {}
    }

    /// Adds or replaces a bundle (the last definition of a name wins, so
    /// `--bundle` overrides the file).
    public mutating func setBundle(_ bundle: BundleConfiguration) {
        bundles.removeAll { $0.name == bundle.name }
        bundles.append(bundle)
    }
}
