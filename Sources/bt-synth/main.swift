import Foundation
import ToolSupport
// bt-synth: being written; see its issue.
Diagnostics(tool: "bt-synth", quiet: false).error("not implemented yet")
exit(69)
