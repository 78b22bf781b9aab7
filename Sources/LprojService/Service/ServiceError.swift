package import ClientBudget
package import LprojInterface
internal import LprojEngine
internal import LprojFormatStrings
internal import LprojLocales

/// Why a call failed: one of the interface's errors, or a parameter whose
/// value fits the interface's type but not the service (a client id with a
/// slash, a table name that is a path).
package enum ServiceError: Error, Sendable, Equatable {
    /// An error the interface declares.
    case localization(Localization.Error)
    /// A parameter the service cannot use, by its name.
    case invalidParameter(String)
}

// The errors, made in one place. A client's text is echoed clipped: an
// error never carries back a megabyte a client sent.
extension ServiceError {
    static func bundleNotFound(_ bundle: String) -> ServiceError {
        .localization(.bundleNotFound(.init(bundle: bundle.clipped())))
    }

    static func invalidLocale(_ locale: String, _ error: LocaleError) -> ServiceError {
        .localization(.invalidLocale(.init(locale: locale.clipped(), reason: error.description)))
    }

    static func tableNotFound(bundle: String, table: String) -> ServiceError {
        .localization(.tableNotFound(.init(bundle: bundle, table: table.clipped())))
    }

    /// A lookup's arguments that do not fit its format; a rendering that
    /// would be too long or too costly is a limit, not a mistake.
    static func invalidArguments(key: String, _ error: FormatError) -> ServiceError {
        var fields = Localization.Error.InvalidArguments(key: key.clipped(), message: error.description)
        switch error {
        case .tooLong(let maximum): return limitExceeded(.valueLength, maximum: maximum)
        case .tooComplex(let maximum): return limitExceeded(.formatSteps, maximum: maximum)
        case .tooMuchWork(let maximum): return limitExceeded(.work, maximum: maximum)
        case let .missingArgument(position, specifier, _):
            fields.position = position
            fields.specifier = specifier
        case let .argumentMismatch(position, specifier, expected, actual):
            fields.position = position
            fields.specifier = specifier
            fields.expected = expected.description
            fields.actual = actual
        case .unsupportedConversion(let specifier):
            fields.specifier = specifier
        case .malformedVariable(let text):
            fields.specifier = text
        case .unknownVariable, .nestingTooDeep:
            break
        }
        return .localization(.invalidArguments(fields))
    }

    static func permissionDenied(_ method: String) -> ServiceError {
        .localization(.permissionDenied(.init(method: method)))
    }

    /// A limit of the service, the server or a budget.
    package static func limitExceeded(_ limit: Localization.Limit, maximum: Int) -> ServiceError {
        .localization(.limitExceeded(.init(limit: limit, maximum: maximum)))
    }

    /// A budget's refusal.
    package static func limitExceeded(_ refusal: BudgetError) -> ServiceError {
        limitExceeded(Localization.Limit(refusal.limit), maximum: refusal.maximum)
    }

    static func invalidValue(_ parameter: String, _ reason: String) -> ServiceError {
        .localization(.invalidValue(.init(parameter: parameter, reason: reason)))
    }

    static func stateUnavailable(_ reason: String) -> ServiceError {
        .localization(.stateUnavailable(.init(reason: reason)))
    }

    static func snapshotsUnavailable(_ reason: String) -> ServiceError {
        .localization(.snapshotsUnavailable(.init(reason: reason)))
    }

    static let internalError = ServiceError.localization(.internalError)
}

extension Localization.Limit {
    /// The interface's name for one of the budget's limits.
    package init(_ limit: BudgetError.Limit) {
        switch limit {
        case .memoryPerUID: self = .memoryPerUID
        case .memory: self = .memoryTotal
        case .perUID(let resource):
            switch resource {
            case .connections: self = .connectionsPerUID
            case .input: self = .inputPerUID
            case .output: self = .outputPerUID
            case .addedStrings: self = .addedStringsPerUID
            case .savedState: self = .savedStatePerUID
            case .caches: self = .cachesPerUID
            }
        case .total(let resource):
            switch resource {
            case .connections: self = .connectionsTotal
            case .input: self = .inputTotal
            case .output: self = .outputTotal
            case .addedStrings: self = .addedStringsTotal
            case .savedState: self = .savedStateTotal
            case .caches: self = .cachesTotal
            }
        }
    }
}
