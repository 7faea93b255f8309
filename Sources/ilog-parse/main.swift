import Foundation
import ToolSupport
// ilog-parse: being written; see its issue.
Diagnostics(tool: "ilog-parse", quiet: false).error("not implemented yet")
exit(69)
