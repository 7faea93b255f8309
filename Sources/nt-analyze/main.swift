import Foundation
import ToolSupport
// nt-analyze: being written; see its issue.
Diagnostics(tool: "nt-analyze", quiet: false).error("not implemented yet")
exit(69)
