/// Checks on the list of inputs of a run.
public enum InputList {
    /// Throws a usage error when one file is given twice (by the same path, or by two paths to one file): its
    /// rows would be counted twice.
    public static func checkDistinct(_ inputs: [String]) throws(TableOutputError) {
        var seen: [FileIdentity: String] = [:]
        for input in inputs {
            guard let identity = FileIdentity(input) else { continue }
            if let first = seen[identity] {
                throw .usage(first == input ? "\(input) is given twice" : "\(first) and \(input) are the same file")
            }
            seen[identity] = input
        }
    }
}
