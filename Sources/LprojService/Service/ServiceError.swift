public import ClientBudget
internal import LprojEngine
internal import LprojFormat
internal import LprojLocales
public import VarlinkProtocol

/// The errors of `org.lprojd.Localization`, built in one place.
public enum LocalizationErrors {
    static let prefix = "org.lprojd.Localization."

    // A client's text is echoed clipped: an error never carries back a
    // megabyte a client sent.

    static func bundleNotFound(_ bundle: String) -> VarlinkError {
        VarlinkError(prefix + "BundleNotFound", ["bundle": .string(bundle.clipped())])
    }

    static func invalidLocale(_ locale: String, _ error: LocaleError) -> VarlinkError {
        VarlinkError(prefix + "InvalidLocale", ["locale": .string(locale.clipped()), "reason": .string(error.description)])
    }

    static func tableNotFound(bundle: String, table: String) -> VarlinkError {
        VarlinkError(prefix + "TableNotFound", ["bundle": .string(bundle), "table": .string(table.clipped())])
    }

    /// A lookup's arguments that do not fit its format; a rendering that
    /// would be too long or too costly is a limit, not a mistake.
    static func invalidArguments(key: String, _ error: FormatError) -> VarlinkError {
        switch error {
        case .tooLong(let maximum): return limitExceeded("valueLength", maximum: maximum)
        case .tooComplex(let maximum): return limitExceeded("formatSteps", maximum: maximum)
        default: break
        }
        var parameters: JSONObject = ["key": .string(key.clipped()), "message": .string(error.description)]
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
        case .unknownVariable, .nestingTooDeep, .tooLong, .tooComplex:
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

    /// A budget's refusal.
    public static func limitExceeded(_ refusal: BudgetRefusal) -> VarlinkError {
        limitExceeded(refusal.limit, maximum: refusal.maximum)
    }

    static func invalidValue(_ parameter: String, _ reason: String) -> VarlinkError {
        VarlinkError(prefix + "InvalidValue", ["parameter": .string(parameter), "reason": .string(reason)])
    }

    static let internalError = VarlinkError(prefix + "InternalError")

    static func stateUnavailable(_ reason: String) -> VarlinkError {
        VarlinkError(prefix + "StateUnavailable", ["reason": .string(reason)])
    }
}
