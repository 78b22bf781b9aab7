import ArgumentParser
import Foundation
import Glibc
import LprojExchange
import LprojLocales
import TerminalProgress

/// Reading a bundle directory's table files for an exchange, and writing
/// an import's files back atomically: the disk side of `LprojExchange`.
enum BundleFiles {
    /// The largest table file read.
    static let maximumFileSize = 64 << 20

    /// `*.lproj/*.strings(dict)` at the top, and `*.xcstrings` down to three
    /// levels (dot-folders skipped, at most 256 folders), as lprojd finds them.
    /// `progress` counts each file read.
    static func read(_ directory: String, developmentLocale: String?, progress: ProgressBar? = nil) throws -> ExchangeBundle {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError("\(directory): not a directory")
        }
        var files: [String: [UInt8]] = [:]
        let names = try manager.contentsOfDirectory(atPath: directory).sorted()
        var folders: [String] = []
        for name in names where name.hasSuffix(".lproj") {
            folders.append(String(name.dropLast(6)))
            for file in try manager.contentsOfDirectory(atPath: "\(directory)/\(name)").sorted()
            where file.hasSuffix(".strings") || file.hasSuffix(".stringsdict") {
                files["\(name)/\(file)"] = try readFile("\(directory)/\(name)/\(file)")
                progress?.advance("\(name)/\(file)")
            }
        }
        var pending: [(path: String, depth: Int)] = [("", 0)]
        var searched = 0
        while let (relative, depth) = pending.first, searched < 256 {
            pending.removeFirst()
            searched += 1
            let absolute = relative.isEmpty ? directory : "\(directory)/\(relative)"
            for name in (try? manager.contentsOfDirectory(atPath: absolute).sorted()) ?? [] where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                var folder: ObjCBool = false
                guard manager.fileExists(atPath: "\(directory)/\(path)", isDirectory: &folder) else { continue }
                if folder.boolValue {
                    if depth < 3 && !name.hasSuffix(".lproj") { pending.append((path, depth + 1)) }
                } else if name.hasSuffix(".xcstrings") {
                    files[path] = try readFile("\(directory)/\(path)")
                    progress?.advance(path)
                }
            }
        }
        return ExchangeBundle(files: files, developmentFolder: developmentFolder(developmentLocale, among: folders))
    }

    /// A bundle directory a command names, as a standardized path, and the
    /// locale its keys are written in: the one given, else guessed as
    /// lprojd guesses for `--bundle`.
    static func bundleDirectory(_ directory: String, developmentLocale: String?) throws -> (path: String, development: LocaleIdentifier) {
        let path = URL(fileURLWithPath: directory).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(directory) is not a directory")
        }
        do {
            return (path, try developmentLocale.map { try LocaleIdentifier($0) } ?? guessDevelopmentLocale(path))
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// `en` when the bundle has `en.lproj` or `English.lproj`, else its
    /// first locale folder's, else `en`: as lprojd guesses for `--bundle`.
    static func guessDevelopmentLocale(_ directory: String) throws -> LocaleIdentifier {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".lproj") }.sorted()
        if folders.contains("en.lproj") || folders.contains("English.lproj") { return try LocaleIdentifier("en") }
        for folder in folders where folder != "Base.lproj" {
            if let locale = try? LocaleIdentifier(String(folder.dropLast(".lproj".count))) { return locale }
        }
        return try LocaleIdentifier("en")
    }

    /// The development language's folder: the one named (by its locale), else `en`, else `Base`.
    static func developmentFolder(_ given: String?, among folders: [String]) -> String {
        if let given {
            let wanted = try? LocaleIdentifier(given)
            return folders.first { $0 == given || (wanted != nil && (try? LocaleIdentifier($0)) == wanted) } ?? given
        }
        if folders.contains("en") { return "en" }
        if folders.contains("Base") { return "Base" }
        return "en"
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes[.size] as? Int, size > maximumFileSize {
            throw CommandError("\(path): \(size) bytes; files over \(maximumFileSize) bytes are not read")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandError("\(path): cannot be read") }
        return [UInt8](data)
    }

    /// Writes every file or none: each goes to a temporary file beside its
    /// destination first (created exclusively, with the old file's mode,
    /// synced); only when all are written are they renamed into place, so
    /// that lprojd never serves half an import.
    /// `progress` counts each file staged (its total raised by as many).
    static func writeAtomically(_ writes: [(path: String, bytes: [UInt8])], progress: ProgressBar? = nil) throws {
        progress.map { $0.expect($0.completed + writes.count) }
        var staged: [(temporary: String, destination: String)] = []
        func discard() { for file in staged { unlink(file.temporary) } }
        for write in writes {
            let destination = write.path
            let folder = (destination as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                discard()
                throw CommandError("\(folder): cannot be created: \(error.localizedDescription)")
            }
            var mode: mode_t = 0o644
            var status = stat()
            if stat(destination, &status) == 0 { mode = status.st_mode & 0o7777 }
            let temporary = "\(folder)/.\((destination as NSString).lastPathComponent).lprojctl-\(getpid())-\(staged.count)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                discard()
                throw CommandError("\(temporary): cannot be created: \(String(cString: strerror(errno)))")
            }
            staged.append((temporary, destination))
            progress?.advance((destination as NSString).lastPathComponent)
            var offset = 0
            let written: Bool = write.bytes.withUnsafeBytes { buffer in
                while offset < buffer.count {
                    let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += count
                }
                return fsync(descriptor) == 0
            }
            fchmod(descriptor, mode)
            close(descriptor)
            guard written else {
                discard()
                throw CommandError("\(destination): cannot be written: \(String(cString: strerror(errno)))")
            }
        }
        for file in staged {
            guard rename(file.temporary, file.destination) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw CommandError("\(file.destination): cannot be replaced: \(reason)")
            }
        }
    }
}
