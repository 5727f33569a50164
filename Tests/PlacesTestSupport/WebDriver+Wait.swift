import Foundation

/// Waiting for what the user would see, pointer actions and page diagnostics.
extension WebDriver {
    /// Polls `condition` every 50 ms until it answers true; on timeout fails with `what` and
    /// what the page shows (its address, the start of `main`'s text, console errors).
    public func wait(
        _ what: String, timeout: TimeInterval = 10, _ condition: () throws -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var lastError: Error?
        while true {
            do {
                if try condition() { return }
            } catch { lastError = error }
            guard Date() < deadline else {
                let reason = lastError.map { " (last error: \($0))" } ?? ""
                throw HarnessError("timed out after \(timeout) s waiting until \(what)\(reason)\n\(diagnostics())")
            }
            usleep(50_000)
        }
    }

    /// Waits for an element matching `css` (displayed, unless `visible` is false) and answers it.
    @discardableResult
    public func waitFor(_ css: String, visible: Bool = true, timeout: TimeInterval = 10) throws -> Element {
        var found: Element?
        try wait("\(css) is on the page", timeout: timeout) {
            found = all(css).first { !visible || isDisplayed($0) }
            return found != nil
        }
        return found!
    }

    /// Waits until no element matches `css`.
    public func waitGone(_ css: String, timeout: TimeInterval = 10) throws {
        try wait("\(css) is gone", timeout: timeout) { all(css).isEmpty }
    }

    /// Waits until the element matching `css` shows `text` (a substring of its rendered text).
    @discardableResult
    public func waitForText(_ css: String, containing text: String, timeout: TimeInterval = 10) throws -> Element {
        var found: Element?
        try wait("\(css) shows “\(text)”", timeout: timeout) {
            found = try all(css).first { try self.text($0).contains(text) }
            return found != nil
        }
        return found!
    }

    /// The texts of every element matching `css`, in document order (one script call).
    public func texts(_ css: String) throws -> [String] {
        let value = try execute(
            "return Array.from(document.querySelectorAll(arguments[0]), e => (e.innerText ?? e.textContent).trim())",
            [css])
        return value as? [String] ?? []
    }

    static let transientClickErrors: Set<String> = [
        "element click intercepted", "element not interactable", "stale element reference",
    ]

    /// Clicks, retrying while something covers the element or it is not yet interactable
    /// (an animation, a toast), up to `timeout`.
    public func clickWhenReady(_ element: Element, timeout: TimeInterval = 5) throws {
        try wait("\(element) can be clicked", timeout: timeout) {
            do {
                try click(element)
                return true
            } catch let failure as Failure where Self.transientClickErrors.contains(failure.code) {
                return false
            }
        }
    }

    /// Clicks the first displayed element matching `css`, found afresh on each try (a live
    /// refresh may replace it), retrying while it is covered, not yet interactable or stale.
    public func click(_ css: String, timeout: TimeInterval = 10) throws {
        try wait("\(css) can be clicked", timeout: timeout) {
            guard let element = all(css).first(where: { isDisplayed($0) }) else { return false }
            do {
                try click(element)
                return true
            } catch let failure as Failure where Self.transientClickErrors.contains(failure.code) {
                return false
            }
        }
    }

    /// Clicks `css` until `result` is on the page: a click that lands as a live refresh
    /// replaces the element (a change event arriving just then) is lost, and a person would
    /// click again. Each click waits `patience` for the result before the next.
    public func click(_ css: String, until result: String, patience: TimeInterval = 3, timeout: TimeInterval = 15)
        throws
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try click(css, timeout: max(1, deadline.timeIntervalSinceNow))
            let wait = min(patience, max(0.5, deadline.timeIntervalSinceNow))
            if (try? waitFor(result, timeout: wait)) != nil { return }
            guard Date() < deadline, !all(css).isEmpty else {
                try waitFor(result, timeout: 0.5)
                return
            }
        }
    }

    /// Waits for `css`, clears it and types `text`.
    public func fill(_ css: String, _ text: String, timeout: TimeInterval = 10) throws {
        let input = try waitFor(css, timeout: timeout)
        try clear(input)
        try type(input, text)
    }

    /// Opens the app's route `hash` (`#/favorites`) in the current page, as a click on a link
    /// would, and waits until its view has rendered (`main[data-ready=true]`). Already there,
    /// it only waits.
    public func go(_ hash: String, timeout: TimeInterval = 10) throws {
        try execute(
            """
            if (location.hash === arguments[0]) return;
            document.getElementById('main').dataset.ready = 'false';
            location.hash = arguments[0];
            """, [hash])
        try waitFor("main[data-ready=true]", visible: false, timeout: timeout)
    }

    /// Drags the `from`-th element matching `css` onto the `to`-th (0-based), finding them
    /// afresh (a live refresh may have replaced them) and retrying while they go stale.
    public func drag(_ css: String, from: Int, to: Int, dy: Int = 0, timeout: TimeInterval = 10) throws {
        try wait("\(css) #\(from + 1) can be dragged onto #\(to + 1)", timeout: timeout) {
            let found = all(css)
            guard found.count > max(from, to) else { return false }
            do {
                try drag(found[from], to: found[to], dy: dy)
                return true
            } catch let failure as Failure where failure.code == "stale element reference" {
                try? command("DELETE", "/actions")
                return false
            }
        }
    }

    /// Drags `source` onto `target` with a mouse, the way a person would: press, move in
    /// steps (Pointer Events fire for each), release. `dy` shifts the drop point vertically
    /// from the target's centre (negative drops above it).
    public func drag(_ source: Element, to target: Element, dy: Int = 0, steps: Int = 8) throws {
        var moves: [[String: Any]] = [
            ["type": "pointerMove", "duration": 0, "origin": source.json, "x": 0, "y": 0],
            ["type": "pointerDown", "button": 0],
            ["type": "pause", "duration": 80],
        ]
        let from = try rect(source), to = try rect(target)
        // Element rectangles are finite CSS pixels on a 1280×900 window: the rounded points
        // below fit an Int.
        guard [from.x, from.y, from.width, from.height, to.x, to.y, to.width, to.height].allSatisfy({ abs($0) < 1e6 })
        else { throw HarnessError("element rectangles out of range") }
        let startX = from.x + from.width / 2, startY = from.y + from.height / 2
        let endX = to.x + to.width / 2, endY = to.y + to.height / 2 + Double(dy)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            moves.append([
                "type": "pointerMove", "duration": 30, "origin": "viewport",
                "x": Int((startX + (endX - startX) * f).rounded()), "y": Int((startY + (endY - startY) * f).rounded()),
            ])
        }
        moves += [["type": "pause", "duration": 80], ["type": "pointerUp", "button": 0]]
        let pointer: [String: Any] = [
            "type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": moves,
        ]
        try command("POST", "/actions", ["actions": [pointer]])
        try command("DELETE", "/actions")
    }

    /// A short account of the page for a failure message.
    public func diagnostics() -> String {
        let url = currentURL
        let main =
            ((try? execute(
                "const m = document.querySelector('main'); return m ? m.innerText : document.body ? document.body.innerText : ''"
            )) as? String) ?? ""
        let errors = consoleErrors().map(\.description).suffix(8)
        return "  page: \(url)\n  shows: \(main.prefix(1200).replacingOccurrences(of: "\n", with: " | "))"
            + (errors.isEmpty ? "" : "\n  console errors:\n    " + errors.joined(separator: "\n    "))
    }

    /// Saves a screenshot of the viewport as `dir/name.png` (the directory is made).
    public func saveScreenshot(_ name: String, in dir: String) throws -> String {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = (dir as NSString).appendingPathComponent(name + ".png")
        try screenshot().write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Makes the viewport exactly `width`×`height` CSS pixels at scale 1 (a screenshot's size).
    public func setViewport(width: Int, height: Int) throws {
        try devTools(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }
}
