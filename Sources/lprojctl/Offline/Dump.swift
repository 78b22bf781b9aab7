import ArgumentParser
import Foundation
import LprojEngine
import LprojTables

/// `lprojctl dump FILE`
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what lprojd reads from a table file, as JSON.",
        discussion: """
            A .strings file prints as an object of key -> value, a .stringsdict
            file as its property list: the same JSON that Foundation's
            PropertyListSerialization would give.
            """
    )

    @Argument(help: "A .strings or .stringsdict file.")
    var file: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Failure("\(file): cannot be read")
        }
        let propertyList: [String: PropertyListValue]
        do throws(TableParseError) {
            switch TableFileKind(fileName: (file as NSString).lastPathComponent) {
            case .stringsdict:
                propertyList = try StringsdictParser().parse([UInt8](data)).propertyList
            default:
                propertyList = try StringsParser().parse([UInt8](data)).propertyList
            }
        } catch {
            throw Failure(error.diagnostic.formatted(file: file))
        }
        let object = PropertyListValue.dictionary(propertyList).jsonObject
        Output.write(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
    }
}
