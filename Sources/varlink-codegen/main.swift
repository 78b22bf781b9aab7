// varlink-codegen: writes the clients of a Varlink interface definition.
//
//   varlink-codegen <interface.varlink> --namespace <Name> [--output <file.swift>]
//       the Swift types (to standard output without --output)
//   varlink-codegen <interface.varlink> --c-prefix <Prefix> --c-include <dir> --c-source <dir> [--streaming <Method>]...
//       the C client: public headers into the first folder, the rest into the second
//   varlink-codegen <interface.varlink> --python <file.py> [--streaming <Method>]...
//       the Python client's method and error tables
//
// `make generate` runs all three for org.lprojd.Localization.
import Foundation
import VarlinkCodegen
import VarlinkProtocol

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("varlink-codegen: \(message)\n".utf8))
    exit(1)
}

let usage = """
    usage: varlink-codegen <interface.varlink> --namespace <Name> [--output <file.swift>]
           varlink-codegen <interface.varlink> --c-prefix <Prefix> --c-include <dir> --c-source <dir> [--streaming <Method>]...
           varlink-codegen <interface.varlink> --python <file.py> [--streaming <Method>]...
    """

var arguments = CommandLine.arguments.dropFirst()
var input: String?
var namespace: String?
var output: String?
var cPrefix: String?
var cInclude: String?
var cSource: String?
var streaming: Set<String> = []
var python: String?
while let argument = arguments.popFirst() {
    switch argument {
    case "--namespace": namespace = arguments.popFirst()
    case "--output": output = arguments.popFirst()
    case "--c-prefix": cPrefix = arguments.popFirst()
    case "--c-include": cInclude = arguments.popFirst()
    case "--c-source": cSource = arguments.popFirst()
    case "--streaming": if let method = arguments.popFirst() { streaming.insert(method) }
    case "--python": python = arguments.popFirst()
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        guard input == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'") }
        input = argument
    }
}
guard let input else { fail(usage) }
guard let data = FileManager.default.contents(atPath: input) else { fail("cannot read \(input)") }
let sourceName = URL(fileURLWithPath: input).lastPathComponent

func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
}

do {
    let idl = try VarlinkIDL(parsing: String(decoding: data, as: UTF8.self))
    if let namespace {
        var generator = SwiftGenerator(idl: idl, namespace: namespace, sourceName: sourceName)
        let swift = try generator.generate()
        if let output { try write(swift, to: output) } else { FileHandle.standardOutput.write(Data(swift.utf8)) }
    }
    if let cPrefix {
        guard let cInclude, let cSource else { fail("--c-prefix needs --c-include and --c-source") }
        let files = try CGenerator(idl: idl, prefix: cPrefix, streaming: streaming, sourceName: sourceName).generate()
        for file in files.all {
            try write(file.text, to: (CGenerator.Files.isPublic(file.name) ? cInclude : cSource) + "/" + file.name)
        }
    }
    if let python {
        try write(try PythonGenerator(idl: idl, streaming: streaming, sourceName: sourceName).generate(), to: python)
    }
    if namespace == nil && cPrefix == nil && python == nil { fail(usage) }
} catch {
    fail("\(input): \(error)")
}
