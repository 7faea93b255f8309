import Foundation

/// The codebook beside CSV outputs: a Frictionless Data Package (`datapackage.json`) for a folder of tables, or a
/// Table Schema (`<file>.schema.json`) for a single table. Every column is described with its type, unit and
/// description, and `NA` is declared as the missing value, so `frictionless validate` checks the tables and other
/// tools read them with the right types.
package enum FrictionlessSchema {
    /// A column's description as the schema needs it (the values are not kept).
    package struct Field {
        package let name: String
        package let kind: ColumnValues
        package let unit: String
        package let description: String?

        package init(_ column: Column) {
            name = column.name
            kind = column.values.emptyOfSameKind
            unit = column.unit
            description = column.description
        }
    }

    /// A Table Schema object for one table.
    package static func tableSchema(_ fields: [Field]) -> [String: Any] {
        ["missingValues": [CellFormatting.missing], "fields": fields.map(field)]
    }

    /// A Data Package describing the tables of a folder, in the order they were written.
    package static func dataPackage(name: String, tables: [(name: String, file: String, fields: [Field])]) -> [String: Any] {
        [
            "profile": "tabular-data-package",
            "name": packageName(name),
            "resources": tables.map { table -> [String: Any] in
                [
                    "name": packageName(table.name), "path": table.file, "profile": "tabular-data-resource",
                    "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
                    "schema": tableSchema(table.fields),
                ]
            },
        ]
    }

    /// Deterministic pretty JSON (sorted keys).
    package static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object,
                                                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func field(_ field: Field) -> [String: Any] {
        var object: [String: Any] = ["name": field.name]
        switch field.kind {
        case .int32, .int64: object["type"] = "integer"
        case .float64, .float32:
            object["type"] = "number"
            object["bareNumber"] = true
        case .bool:
            object["type"] = "boolean"
            object["trueValues"] = [CellFormatting.true]
            object["falseValues"] = [CellFormatting.false]
        case .string: object["type"] = "string"
        case .timestamp:
            object["type"] = "datetime"
            object["description"] = "UTC time, ISO 8601 with Z"
        case .localTimestamp:
            object["type"] = "datetime"
            object["description"] = "wall-clock time of unknown zone, ISO 8601 without offset"
        }
        if !field.unit.isEmpty { object["unit"] = field.unit }
        if let description = field.description {
            if let kindNote = object["description"] as? String { object["description"] = description + " (" + kindNote + ")" }
            else { object["description"] = description }
        }
        return object
    }

    /// Data Package names are lowercase letters, digits, `-`, `_` and `.`.
    private static func packageName(_ name: String) -> String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
    }
}
