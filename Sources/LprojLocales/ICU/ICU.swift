internal import CLprojICU

/// Swift access to the ICU shim: strings in, strings out.
package enum ICU {
    /// Calls a shim function that fills a buffer, growing it if needed
    /// (shared with the package's other ICU users).
    package static func string(_ fill: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var capacity: Int32 = 160
        for _ in 0..<2 {
            let result: String?? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(capacity)) { buffer in
                let length = fill(buffer.baseAddress!, capacity)
                if length < 0 { return .some(nil) }
                if length >= capacity {
                    capacity = length + 1
                    return nil
                }
                return .some(String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(length)), as: UTF8.self))
            }
            if let result { return result }
        }
        return nil
    }

    static func canonicalTag(_ tag: String) -> String? {
        string { lproj_locale_canonical_tag(tag, $0, $1) }
    }

    static func maximize(_ tag: String) -> String? {
        string { lproj_locale_maximize(tag, $0, $1) }
    }

    enum ExplicitParent: Equatable {
        case none
        case root
        case locale(String)
    }

    static func explicitParent(_ tag: String) -> ExplicitParent {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 160) { buffer in
            switch lproj_locale_explicit_parent(tag, buffer.baseAddress!, 160) {
            case 1: .locale(String(cString: buffer.baseAddress!))
            case 2: .root
            default: .none
            }
        }
    }

    static func hasData(_ tag: String) -> Bool {
        lproj_locale_has_data(tag) == 1
    }

    static func isKnownRegion(_ code: String) -> Bool {
        lproj_region_is_known(code) == 1
    }

    static var availableTags: [String] {
        (0..<lproj_locale_available_count()).compactMap { index in
            string { lproj_locale_available_tag(index, $0, $1) }
        }
    }
}
