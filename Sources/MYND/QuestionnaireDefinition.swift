import Foundation

/// A questionnaire definition from the app bundle, `<scenario>_<languageCode>.json` (spec §2.3): the questions,
/// their types and, for single choice, the labels of the stored values.
public struct QuestionnaireDefinition: Sendable, Equatable {
    /// One question.
    public struct Question: Sendable, Equatable {
        public var identifier: String
        /// `mc`, `text`, `date`, `numeric`, `instruction` (others are skipped by the app).
        public var type: String
        public var title: String?
        public var text: String?
        public var optional: Bool
        /// Single-choice labels by value.
        public var choices: [(text: String, value: Int)]
        /// `word` or `number` for `text` questions.
        public var input: String?
        /// `false` for entries after the app stopped reading (an entry lacking `identifier` or `type`).
        public var asked: Bool

        public static func == (lhs: Question, rhs: Question) -> Bool {
            lhs.identifier == rhs.identifier && lhs.type == rhs.type && lhs.title == rhs.title
                && lhs.optional == rhs.optional && lhs.asked == rhs.asked && lhs.input == rhs.input
                && lhs.choices.map(\.text) == rhs.choices.map(\.text) && lhs.choices.map(\.value) == rhs.choices.map(\.value)
        }

        /// The label of a single-choice value.
        public func label(of value: Int) -> String? { choices.first { $0.value == value }?.text }
    }

    /// The question types the app knows.
    public static let knownTypes: Set<String> = ["mc", "text", "date", "numeric", "instruction"]

    /// Scenario from the file name (`initial`).
    public var scenario: String
    /// Language code from the file name (`en`).
    public var language: String
    public var questions: [Question]

    /// The question of an identifier.
    public func question(_ identifier: String) -> Question? { questions.first { $0.identifier == identifier } }

    /// Parses a definition file; `nil` when `fileName` is not `<scenario>_<language>.json` or the JSON has no
    /// `questions` array (the bundle's other files, e.g. `Steps_en.json`).
    public static func parse(_ data: Data, fileName: String) -> QuestionnaireDefinition? {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard name.hasSuffix(".json"), let underscore = name.lastIndex(of: "_") else { return nil }
        let scenario = String(name[..<underscore])
        let language = String(name[name.index(after: underscore)...].dropLast(5))
        guard !scenario.isEmpty, !language.isEmpty,
              let document = try? JSONDocument.parse([UInt8](data)),
              case .array(let entries)? = document["questions"] else { return nil }
        var questions: [Question] = []
        var stopped = false
        for entry in entries {
            guard let identifier = entry["identifier"]?.text, let type = entry["type"]?.text else {
                stopped = true
                continue
            }
            guard knownTypes.contains(type) else { continue }
            var choices: [(String, Int)] = []
            if case .array(let list)? = entry["choices"] {
                for choice in list {
                    if let text = choice["text"]?.text, let value = choice["value"]?.integer { choices.append((text, value)) }
                }
            }
            var optional = false
            if case .bool(let flag)? = entry["optional"] { optional = flag }
            questions.append(Question(identifier: identifier, type: type, title: entry["title"]?.text,
                                      text: entry["text"]?.text, optional: optional, choices: choices,
                                      input: entry["input"]?.text, asked: !stopped))
        }
        return QuestionnaireDefinition(scenario: scenario, language: language, questions: questions)
    }
}

/// The definitions given with `--definitions DIR`, looked up as the app does: `<title>_<locale>.json`, falling
/// back to any language of the same scenario.
public struct DefinitionSet: Sendable, Equatable {
    public var definitions: [QuestionnaireDefinition]

    public init(_ definitions: [QuestionnaireDefinition] = []) {
        self.definitions = definitions.sorted { ($0.scenario, $0.language) < ($1.scenario, $1.language) }
    }

    /// The definition for a scenario and device language.
    public func definition(scenario: String?, locale: String?) -> QuestionnaireDefinition? {
        guard let scenario else { return nil }
        let candidates = definitions.filter { $0.scenario == scenario }
        if let locale {
            let language = locale.split(separator: "-").first.map(String.init) ?? locale
            if let exact = candidates.first(where: { $0.language == locale }) { return exact }
            if let same = candidates.first(where: { $0.language.hasPrefix(language) }) { return same }
        }
        return candidates.first
    }
}
