#if canImport(Glibc)
    import Glibc
#endif
import CSystemd

/// One line of an `sd_notify` message: what the daemon tells its service
/// manager (man sd_notify, systemd 252).
package enum ServiceState: Sendable, Equatable {
    /// Start-up is finished (or a reload is): everything is loaded and the
    /// socket accepts connections.
    case ready
    /// A configuration reload begins; `ready` ends it.
    case reloading
    /// A graceful stop begins.
    case stopping
    /// A one-line, human-readable summary shown by `systemctl status`.
    case status(String)
    /// Start-up failed with this errno.
    case errno(Int32)
    /// The daemon is alive (see ``Watchdog``).
    case watchdog
    /// `CLOCK_MONOTONIC` now, in µs. systemd 253's `Type=notify-reload`
    /// wants it beside `RELOADING=1`; 252 ignores it.
    case monotonicNow

    /// The `KEY=VALUE` line.
    package var line: String {
        switch self {
        case .ready: "READY=1"
        case .reloading: "RELOADING=1"
        case .stopping: "STOPPING=1"
        case .status(let text):
            // One line: systemd shows STATUS= verbatim, and a newline would
            // start a new (bogus) assignment.
            "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
        case .errno(let code): "ERRNO=\(code)"
        case .watchdog: "WATCHDOG=1"
        case .monotonicNow: "MONOTONIC_USEC=\(Self.monotonicMicroseconds())"
        }
    }

    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}

/// Tells the service manager how the daemon is doing, through `sd_notify`
/// and `$NOTIFY_SOCKET`. Without a service manager (no `NOTIFY_SOCKET`)
/// every call does nothing, so the daemon runs the same either way.
package struct ServiceNotifier: Sendable {
    private let send: @Sendable (String) -> Int32

    /// The notifier behind `$NOTIFY_SOCKET`.
    package static let system = ServiceNotifier { message in sd_notify(0, message) }

    /// A notifier that hands each message to `send`, which returns what
    /// `sd_notify` would: > 0 sent, 0 no manager, < 0 a negative errno.
    package init(send: @escaping @Sendable (String) -> Int32) {
        self.send = send
    }

    /// Sends these states as one datagram. Returns whether a service manager
    /// received it; a failure is not an error for the daemon, which keeps
    /// serving without its manager rather than stop.
    @discardableResult
    package func notify(_ states: ServiceState...) -> Bool {
        notify(states)
    }

    @discardableResult
    package func notify(_ states: [ServiceState]) -> Bool {
        guard !states.isEmpty else { return false }
        return send(states.map(\.line).joined(separator: "\n")) > 0
    }
}
