import Foundation

/// One input file as the provenance records it.
public struct InputRecord: Codable, Sendable, Equatable {
    /// The path as given on the command line.
    public var path: String
    /// The size in bytes.
    public var size: Int
    /// The SHA-256 of the content, lowercase hex.
    public var sha256: String

    public init(path: String, size: Int, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}

/// One file a CSV output wrote, as its provenance lists it: how a later run recognises the file as one it may
/// replace (`TableWriters.PreviousOutput`).
public struct OutputFileRecord: Codable, Sendable, Equatable {
    /// The file's name, relative to the provenance file's folder.
    public var file: String
    /// The SHA-256 of its content, lowercase hex.
    public var sha256: String

    public init(file: String, sha256: String) {
        self.file = file
        self.sha256 = sha256
    }
}

/// What made an output: written into every output (HDF5 root attributes, or `provenance.json`).
public struct Provenance: Codable, Sendable, Equatable {
    /// The executable's name, e.g. `bt-decode`.
    public var tool: String
    /// The toolkit version.
    public var version: String
    /// The exact command line, each argument shell-quoted where needed.
    public var commandLine: String
    /// Every input file.
    public var inputs: [InputRecord]
    /// Every parameter that changed a number, as a JSON object (keys sorted).
    public var parametersJSON: String
    /// The files a CSV output wrote beside its provenance (empty for HDF5, which holds its provenance inside).
    public var outputs: [OutputFileRecord] = []

    public init(tool: String, version: String, commandLine: String, inputs: [InputRecord],
                parametersJSON: String) {
        self.tool = tool
        self.version = version
        self.commandLine = commandLine
        self.inputs = inputs
        self.parametersJSON = parametersJSON
    }

    /// Encodes parameters deterministically (sorted keys) as the JSON string stored in ``parametersJSON``.
    public static func encodeParameters<P: Encodable>(_ parameters: P) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(parameters) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The whole record as pretty JSON (``JSONText``), with the parameters as a nested object.
    public func jsonDocument() -> Data {
        Data(JSONText.document(.object(jsonObject())))
    }

    /// The record as the object ``jsonDocument()`` writes, for a document that adds to it.
    public func jsonObject() -> [String: JSON] {
        var object: [String: JSON] = [
            "tool": .string(tool), "version": .string(version), "command_line": .string(commandLine),
            "inputs": .array(inputs.map { ["path": .string($0.path), "size": JSON($0.size), "sha256": .string($0.sha256)] }),
        ]
        if !outputs.isEmpty {
            object["outputs"] = .array(outputs.map { ["file": .string($0.file), "sha256": .string($0.sha256)] })
        }
        object["parameters"] = (try? JSONDecoder().decode(JSON.self, from: Data(parametersJSON.utf8))) ?? .object([:])
        return object
    }

    /// Shell-quotes arguments so the command line can be pasted back into a shell.
    public static func commandLine(_ arguments: [String]) -> String {
        arguments.map { argument in
            let safe = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return safe && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
