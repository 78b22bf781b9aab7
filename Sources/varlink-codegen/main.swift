// varlink-codegen: writes the Swift types of a Varlink interface definition.
//
//   varlink-codegen <interface.varlink> --namespace <Name> [--output <file.swift>]
//
// Without --output the Swift goes to standard output. `make generate` runs
// it for org.lprojd.Localization.
import Foundation
import VarlinkCodegen
import VarlinkProtocol

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("varlink-codegen: \(message)\n".utf8))
    exit(1)
}

var arguments = CommandLine.arguments.dropFirst()
var input: String?
var namespace: String?
var output: String?
while let argument = arguments.popFirst() {
    switch argument {
    case "--namespace": namespace = arguments.popFirst()
    case "--output": output = arguments.popFirst()
    case "-h", "--help":
        print("usage: varlink-codegen <interface.varlink> --namespace <Name> [--output <file.swift>]")
        exit(0)
    default:
        guard input == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'") }
        input = argument
    }
}
guard let input, let namespace else { fail("usage: varlink-codegen <interface.varlink> --namespace <Name> [--output <file.swift>]") }
guard let data = FileManager.default.contents(atPath: input) else { fail("cannot read \(input)") }
do {
    let idl = try VarlinkIDL(parsing: String(decoding: data, as: UTF8.self))
    var generator = SwiftGenerator(idl: idl, namespace: namespace, sourceName: URL(fileURLWithPath: input).lastPathComponent)
    let swift = try generator.generate()
    if let output {
        try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } else {
        FileHandle.standardOutput.write(Data(swift.utf8))
    }
} catch {
    fail("\(input): \(error)")
}
