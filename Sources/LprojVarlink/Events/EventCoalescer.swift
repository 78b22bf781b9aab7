internal import LprojFormatting
internal import LprojService
internal import LprojStore

/// Merges a burst of events into one per subject, so that a subscriber
/// gets one event per table, client or bundle however many changes a
/// burst holds: the tables and locales of every change, the latest
/// locale, preferences or message. Without `merging`, it only keeps them
/// in order.
struct EventCoalescer {
    /// Whether events of one subject merge.
    let merging: Bool

    init(merging: Bool = true) {
        self.merging = merging
    }

    private enum Subject: Hashable {
        case locale(owner: ClientKeySubject, bundle: String)
        case preferences(owner: ClientKeySubject, bundle: String)
        case added(owner: ClientKeySubject, bundle: String)
        case tables(bundle: String)
        case locales(bundle: String)
        case error(bundle: String, file: String)
        case bundle(String)
        case other(Int)
    }

    private struct ClientKeySubject: Hashable {
        let uid: UInt32
        let client: String
    }

    private var order: [Subject] = []
    private var events: [Subject: ServiceEvent] = [:]
    /// The tables and locales merged so far for the subjects whose events
    /// list them (`nil`: all), kept as sets and sorted once, at
    /// ``drain()``: sorting the union at every merge made a burst of N
    /// changes cost N² log N.
    private var lists: [Subject: (tables: Set<String>?, locales: Set<String>?)] = [:]
    private var others = 0

    var isEmpty: Bool { order.isEmpty }
    var count: Int { order.count }

    /// Adds an event, merging it into the pending one of its subject;
    /// returns whether it is of a new subject (one more event to send).
    @discardableResult
    mutating func add(_ event: ServiceEvent) -> Bool {
        guard merging else {
            others += 1
            order.append(.other(others))
            events[.other(others)] = event
            return true
        }
        let subject = Self.subject(of: event, others: &others)
        guard let pending = events[subject] else {
            order.append(subject)
            events[subject] = event
            if let listed = Self.lists(of: event) { lists[subject] = listed }
            return true
        }
        if let listed = Self.lists(of: event), let merged = lists[subject] {
            lists[subject] = (Self.union(merged.tables, listed.tables), Self.union(merged.locales, listed.locales))
            events[subject] = event
        } else {
            events[subject] = Self.merge(pending, event)
        }
        return false
    }

    /// The merged events, in the order their subjects first appeared.
    mutating func drain() -> [ServiceEvent] {
        defer {
            order = []
            events = [:]
            lists = [:]
        }
        return order.compactMap { subject in
            guard let event = events[subject] else { return nil }
            guard let merged = lists[subject] else { return event }
            return Self.event(event, listing: merged)
        }
    }

    /// The tables and locales an event lists, for the kinds that merge them.
    private static func lists(of event: ServiceEvent) -> (tables: Set<String>?, locales: Set<String>?)? {
        switch event {
        case .addedStringsChanged(_, _, let tables, let locales): (tables.map(Set.init), locales.map(Set.init))
        case .tablesChanged(_, let tables, let locales, _): (Set(tables), Set(locales))
        default: nil
        }
    }

    /// The latest event of a subject, listing everything merged into it.
    private static func event(_ latest: ServiceEvent, listing merged: (tables: Set<String>?, locales: Set<String>?)) -> ServiceEvent {
        switch latest {
        case .addedStringsChanged(let owner, let bundle, _, _):
            .addedStringsChanged(owner: owner, bundle: bundle, tables: merged.tables?.sorted(), locales: merged.locales?.sorted())
        case .tablesChanged(let bundle, _, _, let generation):
            .tablesChanged(
                bundle: bundle, tables: (merged.tables ?? []).sorted(), locales: (merged.locales ?? []).sorted(), generation: generation)
        default: latest
        }
    }

    /// The union of two sets where nil means "all".
    private static func union(_ lhs: Set<String>?, _ rhs: Set<String>?) -> Set<String>? {
        guard var lhs, let rhs else { return nil }
        lhs.formUnion(rhs)
        return lhs
    }

    private static func subject(of event: ServiceEvent, others: inout Int) -> Subject {
        switch event {
        case .localeChanged(let owner, let bundle, _, _):
            return .locale(owner: ClientKeySubject(uid: owner.uid, client: owner.client), bundle: bundle)
        case .preferencesChanged(let owner, let bundle, _, _):
            return .preferences(owner: ClientKeySubject(uid: owner.uid, client: owner.client), bundle: bundle)
        case .addedStringsChanged(let owner, let bundle, _, _):
            return .added(owner: ClientKeySubject(uid: owner.uid, client: owner.client), bundle: bundle)
        case .tablesChanged(let bundle, _, _, _): return .tables(bundle: bundle)
        case .localesChanged(let bundle, _, _, _): return .locales(bundle: bundle)
        case .tableError(let bundle, let file, _, _, _, _): return .error(bundle: bundle, file: file)
        case .bundleChanged(let bundle, _, _): return .bundle(bundle)
        case .ready, .shutdown:
            // Never coalesced (and never published; kept apart all the same).
            others += 1
            return .other(others)
        }
    }

    private static func merge(_ old: ServiceEvent, _ new: ServiceEvent) -> ServiceEvent {
        switch (old, new) {
        case let (.localeChanged(owner, bundle, _, previous), .localeChanged(_, _, locale, _)):
            return .localeChanged(owner: owner, bundle: bundle, locale: locale, previous: previous)
        case let (.preferencesChanged(owner, bundle, _, oldChanged), .preferencesChanged(_, _, preferences, newChanged)):
            let changed = FormattingFieldOrder.sorted(Set(oldChanged).union(newChanged))
            return .preferencesChanged(owner: owner, bundle: bundle, preferences: preferences, changed: changed)
        case let (.localesChanged(bundle, oldAdded, oldRemoved, _), .localesChanged(_, newAdded, newRemoved, generation)):
            // Net of the burst: a folder added then removed is neither.
            var added = Set(oldAdded), removed = Set(oldRemoved)
            for locale in newAdded { if removed.remove(locale) == nil { added.insert(locale) } }
            for locale in newRemoved { if added.remove(locale) == nil { removed.insert(locale) } }
            return .localesChanged(bundle: bundle, added: added.sorted(), removed: removed.sorted(), generation: generation)
        default:
            return new
        }
    }
}

/// The preferences' fields in the interface's order.
enum FormattingFieldOrder {
    static func sorted(_ names: Set<String>) -> [String] {
        let order = FormattingPreferences.Field.allCases.map(\.rawValue)
        return order.filter(names.contains) + names.subtracting(order).sorted()
    }
}
