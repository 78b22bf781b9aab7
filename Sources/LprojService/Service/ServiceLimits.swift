/// What one call may ask for: every text a client sends is limited in
/// UTF-8 bytes as sent, and every list in entries, before lprojd does
/// anything with it (trimming, canonicalizing, hashing, caching, saving).
package struct ServiceLimits: Sendable, Equatable {
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
    /// The largest reply, in bytes as sent: a whole table that would not
    /// fit is refused before it is built (the server checks every reply
    /// again once it is encoded).
    package var maximumReplySize = 16 << 20

    /// How often a uid may change its clients' state (select, reset, set
    /// preferences, add or remove strings), each change an event for its
    /// subscribers: this many a second, after a burst of
    /// ``changeBurstPerUID``. An app changes things when its user does; a
    /// uid past this is flooding its own subscribers and the queue that
    /// delivers every uid's events.
    package var changesPerSecondPerUID = 200
    /// The changes a uid may make at once.
    package var changeBurstPerUID = 512

    /// The defaults.
    package init() {}
}
