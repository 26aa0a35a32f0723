/// The device in a browser: the page's files (`Web/`, embedded in the binary by SwiftPM's
/// `embedInCode`), by the name the page loads them under: `GET /` is `index.html`,
/// `GET /web/<name>` the others.
///
/// SwiftPM names each embedded file by a property, not by a list: a file added to `Web/`
/// gets a line here (`WebFilesTests` fails on any that lacks one).
package enum WebFiles {
    package static var all: [String: [UInt8]] {
        [
            "index.html": PackageResources.index_html,
            "app.js": PackageResources.app_js,
            "app.css": PackageResources.app_css,
            "why.js": PackageResources.why_js,
        ]
    }
}
