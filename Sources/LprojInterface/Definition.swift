extension Localization {
    /// The interface definition, `org.lprojd.Localization.varlink`: what
    /// `GetInterfaceDescription` serves, verbatim, and what the types in
    /// this module are generated from.
    public static let definition = String(decoding: PackageResources.org_lprojd_Localization_varlink, as: UTF8.self)
}
