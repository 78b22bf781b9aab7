public import VarlinkProtocol

/// An error reply from lprojd, readable as one line.
public struct LprojError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Varlink error name (`org.lprojd.Localization.BundleNotFound`).
    public let name: String
    /// Its parameters.
    public let parameters: JSONObject

    init(_ error: VarlinkError) {
        name = error.name
        parameters = error.parameters
    }

    func string(_ key: String) -> String? {
        if case .string(let value)? = parameters[key] { return value }
        return nil
    }

    func int(_ key: String) -> Int? {
        if case .number(let number)? = parameters[key], let integer = number.integer { return Int(integer) }
        return nil
    }

    /// The last part of the name (`BundleNotFound`).
    public var shortName: Substring { name.split(separator: ".").last ?? Substring(name) }

    public var description: String {
        switch shortName {
        case "BundleNotFound": return "no bundle named '\(string("bundle") ?? "?")'"
        case "InvalidLocale": return string("reason") ?? "invalid locale '\(string("locale") ?? "?")'"
        case "TableNotFound": return "the bundle '\(string("bundle") ?? "?")' has no table '\(string("table") ?? "?")'"
        case "InvalidArguments": return "the arguments do not fit '\(string("key") ?? "?")': \(string("message") ?? "")"
        case "PermissionDenied": return "permission denied: \(string("method") ?? "this method") is for root and lprojd's own user"
        case "LimitExceeded": return "limit exceeded: \(string("limit") ?? "?") (at most \(int("maximum").map(String.init) ?? "?"))"
        case "InternalError": return "lprojd failed internally; its log has the details"
        case "InvalidParameter": return "invalid parameter '\(string("parameter") ?? "?")'"
        case "MethodNotFound": return "lprojd has no method \(string("method") ?? "?") (an older lprojd?)"
        case "InterfaceNotFound": return "lprojd does not serve \(string("interface") ?? "?")"
        case "ExpectedMore": return "the method must be called with more"
        default: return parameters.isEmpty ? name : "\(name) \(String(decoding: JSONWriter.encode(.object(parameters)), as: UTF8.self))"
        }
    }
}
