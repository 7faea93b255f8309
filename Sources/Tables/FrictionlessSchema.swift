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
    package static func tableSchema(_ fields: [Field]) -> JSON {
        ["missingValues": [.string(CellFormatting.missing)], "fields": .array(fields.map(field))]
    }

    /// A Data Package describing the tables of a folder, in the order they were written.
    package static func dataPackage(name: String, tables: [(name: String, file: String, fields: [Field])]) -> JSON {
        [
            "profile": "tabular-data-package",
            "name": .string(packageName(name)),
            "resources": .array(tables.map { table -> JSON in
                [
                    "name": .string(packageName(table.name)), "path": .string(table.file), "profile": "tabular-data-resource",
                    "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
                    "schema": tableSchema(table.fields),
                ]
            }),
        ]
    }

    /// Deterministic pretty JSON (``JSONText``: sorted keys), with a line end.
    package static func json(_ value: JSON) -> String {
        String(decoding: JSONText.document(value), as: UTF8.self)
    }

    private static func field(_ field: Field) -> JSON {
        var object: [String: JSON] = ["name": .string(field.name)]
        switch field.kind {
        case .int32, .int64: object["type"] = "integer"
        case .float64, .float32:
            object["type"] = "number"
            object["bareNumber"] = true
        case .bool:
            object["type"] = "boolean"
            object["trueValues"] = [.string(CellFormatting.true)]
            object["falseValues"] = [.string(CellFormatting.false)]
        case .string: object["type"] = "string"
        case .timestamp:
            object["type"] = "datetime"
            object["description"] = "UTC time, ISO 8601 with Z"
        case .localTimestamp:
            object["type"] = "datetime"
            object["description"] = "wall-clock time of unknown zone, ISO 8601 without offset"
        }
        if !field.unit.isEmpty { object["unit"] = .string(field.unit) }
        if let description = field.description {
            if let kindNote = object["description"]?.string { object["description"] = .string(description + " (" + kindNote + ")") }
            else { object["description"] = .string(description) }
        }
        return .object(object)
    }

    /// Data Package names are lowercase letters, digits, `-`, `_` and `.`.
    private static func packageName(_ name: String) -> String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
    }
}
