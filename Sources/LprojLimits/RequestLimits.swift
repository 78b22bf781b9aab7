/// What one call may ask for: every text a client sends is limited in
/// UTF-8 bytes as sent, and every list in entries, before lprojd does
/// anything with it (trimming, canonicalizing, hashing, caching, saving).
package struct RequestLimits: Sendable, Equatable {
    /// The longest key a lookup may name, in bytes.
    package var maximumKeyLength = 64 << 10
    /// The longest value a reply may carry (a string looked up and
    /// formatted, a default value, an argument), in bytes.
    package var maximumValueLength = 1 << 20
    /// Arguments of one lookup.
    package var maximumArguments = 256
    /// Placeholders of one lookup.
    package var maximumPlaceholders = 256
    /// Preferred languages of one call.
    package var maximumPreferredLanguages = 64
    /// Locales (or values) one negotiation chooses among.
    package var maximumLocales = 1024

    /// How often a uid may change its clients' state (select, reset, set
    /// preferences, add or remove strings), each change an event for its
    /// subscribers: this many a second, after a burst of
    /// ``changeBurstPerUID``. An app changes things when its user does; a
    /// uid past this is flooding its own subscribers and the queue that
    /// delivers every uid's events.
    package var changesPerSecondPerUID = 200 {
        didSet { changeBurstPerUID = max(changeBurstPerUID, changesPerSecondPerUID) }
    }
    /// The changes a uid may make at once (never fewer than it may make
    /// in a second).
    package var changeBurstPerUID = 512

    /// The defaults.
    package init() {}
}
