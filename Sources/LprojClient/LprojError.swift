public import LprojInterface
public import VarlinkProtocol

/// Why a call to lprojd failed.
public enum LprojError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One of the interface's errors (`BundleNotFound`, `InvalidLocale`, ...).
    case localization(Localization.Error)
    /// An error of Varlink itself (`org.varlink.service.InvalidParameter`,
    /// `MethodNotFound`, ...), or one this client does not know (from a
    /// newer lprojd).
    case varlink(VarlinkError)
    /// The connection closed before the reply came.
    case disconnected
    /// The calling task was cancelled before the reply came; the connection
    /// is still usable (the reply, when it comes, is dropped).
    case cancelled
    /// lprojd sent a reply that does not fit the interface: which field.
    case malformedReply(SchemaError)

    /// An error reply, read into the interface's errors where it is one.
    init(_ error: VarlinkError) {
        if let known = try? Localization.Error(qualifiedName: error.name, parameters: error.parameters) {
            self = .localization(known)
        } else {
            self = .varlink(error)
        }
    }

    /// The Varlink error name (`org.lprojd.Localization.BundleNotFound`).
    public var name: String {
        switch self {
        case .localization(let error): error.qualifiedName
        case .varlink(let error): error.name
        case .disconnected: "disconnected"
        case .cancelled: "cancelled"
        case .malformedReply: "malformedReply"
        }
    }

    /// The error's fields, as sent.
    public var parameters: JSONObject {
        switch self {
        case .localization(let error): error.parameters
        case .varlink(let error): error.parameters
        case .disconnected, .cancelled, .malformedReply: [:]
        }
    }

    /// The last part of the name (`BundleNotFound`).
    public var shortName: Substring { name.split(separator: ".").last ?? Substring(name) }

    public var description: String {
        switch self {
        case .localization(let error):
            switch error {
            case .bundleNotFound(let fields): "no bundle named '\(fields.bundle)'"
            case .invalidLocale(let fields): fields.reason
            case .tableNotFound(let fields): "the bundle '\(fields.bundle)' has no table '\(fields.table)'"
            case .invalidArguments(let fields): "the arguments do not fit '\(fields.key)': \(fields.message)"
            case .permissionDenied(let fields): "permission denied: \(fields.method) is for root and lprojd's own user"
            case .limitExceeded(let fields): "limit exceeded: \(fields.limit.rawValue) (at most \(fields.maximum))"
            case .invalidValue(let fields): "\(fields.parameter): \(fields.reason)"
            case .stateUnavailable(let fields): "selections and preferences cannot be saved now: \(fields.reason)"
            case .snapshotsUnavailable(let fields): "snapshots cannot be written now: \(fields.reason)"
            case .internalError: "lprojd failed internally; its log has the details"
            }
        case .varlink(let error):
            switch error.name {
            case "org.varlink.service.InvalidParameter": "invalid parameter '\(error.parameters["parameter"]?.string ?? "?")'"
            case "org.varlink.service.MethodNotFound":
                "lprojd has no method \(error.parameters["method"]?.string ?? "?") (an older lprojd?)"
            case "org.varlink.service.InterfaceNotFound": "lprojd does not serve \(error.parameters["interface"]?.string ?? "?")"
            case "org.varlink.service.ExpectedMore": "the method must be called with more"
            default: error.description
            }
        case .disconnected: "the connection to lprojd closed"
        case .cancelled: "the call was cancelled"
        case .malformedReply(let error): "lprojd sent a reply that does not fit the interface: \(error)"
        }
    }
}

extension JSONValue {
    fileprivate var string: String? { if case .string(let value) = self { value } else { nil } }
}
