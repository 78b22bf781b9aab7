internal import LprojEngine
internal import LprojFormat
internal import LprojLocales
public import VarlinkProtocol

/// The errors of `org.lprojd.Localization`, built in one place.
public enum LocalizationErrors {
    static let prefix = "org.lprojd.Localization."

    static func bundleNotFound(_ bundle: String) -> VarlinkError {
        VarlinkError(prefix + "BundleNotFound", ["bundle": .string(bundle)])
    }

    static func invalidLocale(_ locale: String, _ error: LocaleError) -> VarlinkError {
        VarlinkError(prefix + "InvalidLocale", ["locale": .string(locale), "reason": .string(error.description)])
    }

    static func tableNotFound(bundle: String, table: String) -> VarlinkError {
        VarlinkError(prefix + "TableNotFound", ["bundle": .string(bundle), "table": .string(table)])
    }

    static func invalidArguments(key: String, _ error: FormatError) -> VarlinkError {
        var parameters: JSONObject = ["key": .string(key), "message": .string(error.description)]
        switch error {
        case let .missingArgument(position, specifier, _):
            parameters["position"] = .int(position)
            parameters["specifier"] = .string(specifier)
        case let .argumentMismatch(position, specifier, expected, actual):
            parameters["position"] = .int(position)
            parameters["specifier"] = .string(specifier)
            parameters["expected"] = .string(expected.description)
            parameters["actual"] = .string(actual)
        case .unsupportedConversion(let specifier):
            parameters["specifier"] = .string(specifier)
        case .malformedVariable(let text):
            parameters["specifier"] = .string(text)
        case .unknownVariable, .nestingTooDeep:
            break
        }
        return VarlinkError(prefix + "InvalidArguments", parameters)
    }

    static func permissionDenied(_ method: String) -> VarlinkError {
        VarlinkError(prefix + "PermissionDenied", ["method": .string(method)])
    }

    /// A limit error, for the server's limits and the service's own.
    public static func limitExceeded(_ limit: String, maximum: Int) -> VarlinkError {
        VarlinkError(prefix + "LimitExceeded", ["limit": .string(limit), "maximum": .int(maximum)])
    }

    static func invalidValue(_ parameter: String, _ reason: String) -> VarlinkError {
        VarlinkError(prefix + "InvalidValue", ["parameter": .string(parameter), "reason": .string(reason)])
    }

    static let internalError = VarlinkError(prefix + "InternalError")
}
