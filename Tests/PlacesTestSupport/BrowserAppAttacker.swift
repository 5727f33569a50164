import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A hostile web page on another loopback origin (`python3 -m http.server` on
/// 127.0.0.1:OTHERPORT, serving a temp dir holding evil.html and evil.js — no inline
/// script): opened in the browser that holds the app's session cookie, it tries to make the
/// app's server act for the attacker, and writes what each attempt saw into
/// `window.__attack` (and `document.body.dataset.done` when all have run).
public final class AttackerSite: @unchecked Sendable {
    public let dir: TempDir
    private let process: Process
    public private(set) var port = 0

    public init() throws {
        dir = TempDir()
        try Self.page.write(toFile: dir.path + "/evil.html", atomically: true, encoding: .utf8)
        try Self.script.write(toFile: dir.path + "/evil.js", atomically: true, encoding: .utf8)
        guard let python = executableOnPath("python3") else { throw HarnessError("python3 is not on PATH") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir.path]
        let out = dir.path + ".out"
        FileManager.default.createFile(atPath: out, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: out)
        try process.run()
        try waitUntil("the attacker's server says its port", timeout: 15) {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            guard let range = text.range(of: " port ") else { return false }
            port = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
            return port > 0
        }
    }

    /// The attacker's page, told where the app is.
    public func pageURL(app origin: String) -> String {
        "http://127.0.0.1:\(port)/evil.html?app="
            + (origin.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: dir.path + ".out")
        dir.remove()
    }

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>Win a free trip</title>
        <script src="evil.js" defer></script></head>
        <body><h1>Win a free trip to Lisbon</h1>
        <iframe name="sink" id="sink" title="sink"></iframe>
        <iframe id="framed" title="framed"></iframe>
        <form id="form" method="POST" enctype="text/plain" target="sink">
        <input type="hidden" id="field" value="">
        </form></body></html>
        """

    /// Each attempt records `status N type T` when the fetch answered (a no-cors answer is
    /// opaque: status 0) or `error …` when the browser refused it; `readable` holds any
    /// body the attacker managed to read.
    static let script = """
        const app = new URLSearchParams(location.search).get('app');
        const attack = {};
        window.__attack = attack;
        function csrfFromCookies() {
          for (const part of document.cookie.split(';')) {
            const [name, ...rest] = part.trim().split('=');
            if (name === 'places_csrf') return rest.join('=');
          }
          return '';
        }
        async function attempt(name, path, init) {
          try {
            const r = await fetch(app + path, { credentials: 'include', ...init });
            attack[name] = 'status ' + r.status + ' type ' + r.type;
            try { const text = await r.text(); if (text) attack[name + '.readable'] = text.slice(0, 200); } catch {}
          } catch (e) { attack[name] = 'error ' + e.message; }
        }
        const place = (label) => JSON.stringify({ name: label, latitude: 38.7, longitude: -9.1 });
        async function run() {
          attack.cookiesSeen = document.cookie;
          const csrf = csrfFromCookies();
          await attempt('simplePost', '/v1/places',
            { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: place('Evil simple') });
          await attempt('jsonPost', '/v1/places',
            { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: place('Evil json') });
          await attempt('csrfPost', '/v1/places', {
            method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Places-CSRF': csrf },
            body: place('Evil with the csrf cookie') });
          await attempt('read', '/v1/status', { method: 'GET' });
          await attempt('readNoCors', '/v1/status', { method: 'GET', mode: 'no-cors' });
          // A form POST: no script needed on the attacker's side beyond submit(); its body is
          // text/plain shaped as JSON.
          const form = document.getElementById('form');
          form.action = app + '/v1/places';
          const field = document.getElementById('field');
          field.name = '{"name":"Evil form","latitude":38.7,"longitude":-9.1,"x":"';
          field.value = '"}';
          const sink = document.getElementById('sink');
          const loaded = new Promise((resolve) => { sink.onload = resolve; setTimeout(resolve, 5000); });
          form.submit();
          await loaded;
          attack.form = 'submitted';
          // Framing the app (clickjacking): the frame must stay empty.
          const framed = document.getElementById('framed');
          const framedLoaded = new Promise((resolve) => { framed.onload = resolve; setTimeout(resolve, 5000); });
          framed.src = app + '/';
          await framedLoaded;
          attack.framed = 'loaded';
          document.body.dataset.done = 'true';
        }
        run();
        """
}
