public import LprojFormatStrings

extension PluralFormat {
    /// The entry as a property list, the way a `.stringsdict` file writes it.
    public var propertyList: [String: PropertyListValue] {
        var result: [String: PropertyListValue] = [StringsdictParser.formatKey: .string(formatKey)]
        for (name, variable) in variables {
            var dictionary: [String: PropertyListValue] = [StringsdictParser.specTypeKey: .string(StringsdictParser.pluralRuleType)]
            if let valueType = variable.valueTypeText { dictionary[StringsdictParser.valueTypeKey] = .string(valueType) }
            for (category, text) in variable.forms { dictionary[category.rawValue] = .string(text) }
            result[name] = .dictionary(dictionary)
        }
        return result
    }
}
