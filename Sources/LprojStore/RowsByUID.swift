/// A client's rows for one bundle, found by uid first: a uid's own rows
/// are listed without looking at anyone else's (`ListClients` and the
/// desktop's language changes read one uid's rows).
struct RowsByUID<Value> {
    /// A client and a bundle, within one uid.
    struct Pair: Hashable {
        let client: String
        let bundle: String
    }

    private(set) var byUID: [UInt32: [Pair: Value]] = [:]

    subscript(key: ClientStore.SelectionKey) -> Value? {
        get { byUID[key.uid]?[Pair(client: key.client, bundle: key.bundle)] }
        set {
            let pair = Pair(client: key.client, bundle: key.bundle)
            if let newValue {
                byUID[key.uid, default: [:]][pair] = newValue
            } else if byUID[key.uid]?.removeValue(forKey: pair) != nil, byUID[key.uid]?.isEmpty == true {
                byUID[key.uid] = nil
            }
        }
    }

    /// Removes a row and returns it.
    mutating func removeValue(forKey key: ClientStore.SelectionKey) -> Value? {
        let value = self[key]
        self[key] = nil
        return value
    }

    /// Every row, with its key.
    var all: [(key: ClientStore.SelectionKey, value: Value)] {
        byUID.flatMap { uid, rows in
            rows.map { (key: ClientStore.SelectionKey(uid: uid, client: $0.key.client, bundle: $0.key.bundle), value: $0.value) }
        }
    }

    /// One uid's rows.
    func rows(of uid: UInt32) -> [Pair: Value] { byUID[uid] ?? [:] }

    var count: Int { byUID.values.reduce(0) { $0 + $1.count } }
}

extension RowsByUID: Sendable where Value: Sendable {}
extension RowsByUID.Pair: Sendable {}
