/// How a number is written: NSNumberFormatter's styles.
package enum NumberFormatStyle: String, Sendable, CaseIterable {
    /// The locale's decimal pattern: grouping, at most 3 fraction digits.
    case decimal
    /// A percentage, the value taken as already one: 25 is "25 %" (at most
    /// 2 fraction digits).
    case percent
    /// An amount of money: the client's currency symbol, else the locale's
    /// currency; 2 fraction digits.
    case currency
    /// Scientific notation ("1.2345E3").
    case scientific
    /// Words ("one thousand two hundred thirty-four").
    case spellOut
}

/// A unit of length, for distances.
package enum DistanceUnit: String, Sendable, CaseIterable {
    case meters, kilometers, feet, yards, miles

    /// ICU's measure unit.
    var icuUnit: String {
        switch self {
        case .meters: "length-meter"
        case .kilometers: "length-kilometer"
        case .feet: "length-foot"
        case .yards: "length-yard"
        case .miles: "length-mile"
        }
    }

    /// Meters in one of this unit.
    var meters: Double {
        switch self {
        case .meters: 1
        case .kilometers: 1_000
        case .feet: 0.3048
        case .yards: 0.9144
        case .miles: 1_609.344
        }
    }
}

/// A unit of speed.
package enum SpeedUnit: String, Sendable, CaseIterable {
    case kilometersPerHour, milesPerHour, metersPerSecond, knots

    var icuUnit: String {
        switch self {
        case .kilometersPerHour: "speed-kilometer-per-hour"
        case .milesPerHour: "speed-mile-per-hour"
        case .metersPerSecond: "speed-meter-per-second"
        case .knots: "speed-knot"
        }
    }

    /// Meters per second in one of this unit.
    var metersPerSecond: Double {
        switch self {
        case .kilometersPerHour: 1_000.0 / 3_600.0
        case .milesPerHour: 1_609.344 / 3_600.0
        case .metersPerSecond: 1
        case .knots: 1_852.0 / 3_600.0
        }
    }
}

/// A locale's system of measurement (CLDR's `measurementSystem`).
package enum MeasurementSystem: String, Sendable {
    case metric, us, uk

    /// SDLocalizationManager's defaults: feet where the locale does not use
    /// the metric system, meters elsewhere.
    package var distanceUnit: DistanceUnit { self == .us ? .feet : .meters }

    /// Miles per hour in the US and the UK, kilometers per hour elsewhere.
    package var speedUnit: SpeedUnit { self == .metric ? .kilometersPerHour : .milesPerHour }
}

/// How a date is written.
package enum DateFormatStyle: Sendable, Equatable {
    /// SDLocalizationManager's named formatters: each template becomes the
    /// locale's own pattern, as `dateFormatFromTemplate` makes it.
    case simpleDate, time12, time24, simpleDateTime
    /// The fixed server format `yyyy-MM-dd HH:mm:ss.SSS`, always in GMT, in
    /// the Gregorian calendar, with ASCII digits, whatever the locale.
    case server
    /// A template of the caller's: the fields it wants ("yMMMd", "jm").
    case template(String)
    /// A pattern of the caller's, used as written ("EEEE d MMMM").
    case pattern(String)
    /// The client's saved date format, time format, or both joined by a
    /// space (defaults `dd/MM/yyyy` and `HH:mm`), used as written.
    case savedDate, savedTime, savedDateTime

    /// SDLocalizationManager's templates.
    package var namedTemplate: String? {
        switch self {
        case .simpleDate: "dd/MM/yyyy"
        case .time12: "hh:mm a"
        case .time24: "HH:mm"
        case .simpleDateTime: "dd/MM/yyyy HH:mm"
        default: nil
        }
    }

    /// The server format's pattern.
    package static let serverPattern = "yyyy-MM-dd HH:mm:ss.SSS"
}
