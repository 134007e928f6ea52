#!/usr/bin/env python3
"""Make the pictures in `screenshots/` from the real binary running in a real terminal.

    sudo apt-get install tmux chromium fonts-noto-cjk fonts-dejavu-core
    cargo build --release
    python3 tools/screenshots.py            # all scenes
    python3 tools/screenshots.py janggi     # scenes whose name contains "janggi"

Each scene starts `target/release/qipan` inside a detached tmux session of a fixed size
(with a private HOME, so no autosave or config of yours is touched), sends it keys as a
player would, and captures the pane with its colours (`tmux capture-pane -e`). The ANSI
text is laid out as HTML on a grid of character cells — every cell is exactly one or two
columns wide, as the terminal drew it (East Asian width), so the picture does not depend
on the font's own widths — and headless Chromium turns the page into a PNG. The
`.ansi` capture is kept beside each picture as text evidence.
"""

import html
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "qipan")
OUTPUT = os.path.join(ROOT, "screenshots")
CELL_WIDTH = 10  # pixels per terminal column
CELL_HEIGHT = 21  # pixels per terminal row

# The 16 ANSI colours as a common dark terminal shows them (xterm's defaults).
ANSI16 = [
    "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
    "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
]
DEFAULT_FOREGROUND = "#d8d8d8"
WIDE = ";font-size:19px"  # a two-column glyph fills its two cells
DEFAULT_BACKGROUND = "#1c1c1c"

# (name, size, command-line arguments, keys) — a key is a tmux key name, or
# ("wait", seconds), or ("type", text) to send literally.
OPENING_XIANGQI = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2a2", "c6c5"]
OPENING_JANGGI = ["a4b4", "c7c6", "i4h4", "g7f7", "b1c3", "h10g8"]
OPENING_SHOGI = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e3d"]


def typed_moves(moves):
    keys = []
    for move in moves:
        keys += [":", ("type", move), "Enter", ("wait", 0.15)]
    return keys


WATCH = """
[cpu]
level = 10
side = "both"
"""

# (name, size, command-line arguments, keys[, config.toml text]).
SCENES = [
    ("start-screen", (100, 30), ["--lang", "ko"], []),
    ("start-screen-english", (100, 30), ["--lang", "en"], []),
    ("settings", (100, 30), ["--lang", "ko"], ["o", ("wait", 0.3), "Down", "Down", "Down"]),
    ("xiangqi-midgame", (100, 32), ["--lang", "ko", "xiangqi"], typed_moves(OPENING_XIANGQI)),
    ("xiangqi-english-wxf", (100, 32), ["--lang", "en", "xiangqi"], typed_moves(OPENING_XIANGQI)),
    ("janggi-midgame", (100, 32), ["--lang", "ko", "janggi"], typed_moves(OPENING_JANGGI)),
    ("janggi-cpu-thinking", (100, 32), ["--lang", "ko", "janggi"], [("wait", 6.0)], WATCH),
    ("shogi-hand", (100, 30), ["--lang", "ko", "shogi"], typed_moves(OPENING_SHOGI)),
    ("gungjanggi-clock", (100, 32), ["--lang", "ko", "gungjanggi"],
     typed_moves(["a4b4", "i7i6"]) + [("wait", 2.5)]),
    ("xiangqi-latin-glyphs", (100, 32), ["--lang", "en", "--ascii", "xiangqi"],
     typed_moves(OPENING_XIANGQI)),
    ("theme-dark", (100, 32), ["--lang", "ko", "--theme", "dark", "janggi"],
     typed_moves(OPENING_JANGGI)),
    ("theme-contrast", (100, 32), ["--lang", "en", "--theme", "contrast", "xiangqi"],
     typed_moves(OPENING_XIANGQI)),
    ("theme-sixteen", (100, 30), ["--lang", "ko", "--theme", "sixteen", "shogi"],
     typed_moves(OPENING_SHOGI)),
    ("help", (100, 32), ["--lang", "ko", "janggi"], ["?"]),
    ("game-over", (100, 32), ["--lang", "en", "xiangqi"],
     typed_moves(["h2e2", "h9g7"]) + ["R", ("wait", 0.2), "y"]),
    ("small-terminal-80x24", (80, 24), ["--lang", "ko", "janggi"], typed_moves(OPENING_JANGGI)),
    ("xiangqi-chinese", (100, 32), ["--lang", "zh", "xiangqi"], typed_moves(OPENING_XIANGQI)),
    ("shogi-japanese", (100, 30), ["--lang", "ja", "shogi"], typed_moves(OPENING_SHOGI)),
]




def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def capture(name, size, arguments, keys, home, config=None):
    session = "qipan-shot-" + name
    columns, rows = size
    environment = {
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, "config"),
        "XDG_STATE_HOME": os.path.join(home, "state"),
        "QIPAN_AUTOSAVE": os.path.join(home, "autosave.txt"),
        "TERM": "tmux-256color",
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
    }
    if config is not None:
        os.makedirs(os.path.join(home, "config", "qipan"), exist_ok=True)
        with open(os.path.join(home, "config", "qipan", "config.toml"), "w") as file:
            file.write(config)
    exports = " ".join(f"{key}={value}" for key, value in environment.items())
    command = f"env -i PATH=/usr/bin:/bin {exports} {BINARY} {' '.join(arguments)}"
    subprocess.run(["tmux", "kill-session", "-t", session], stderr=subprocess.DEVNULL)
    run(["tmux", "-f", "/dev/null", "new-session", "-d", "-s", session,
         "-x", str(columns), "-y", str(rows), command])
    run(["tmux", "set-option", "-t", session, "-g", "default-terminal", "tmux-256color"])
    run(["tmux", "set-option", "-t", session, "-as", "terminal-features", ",*:RGB"])
    time.sleep(0.8)
    for key in keys:
        if isinstance(key, tuple) and key[0] == "wait":
            time.sleep(key[1])
        elif isinstance(key, tuple) and key[0] == "type":
            run(["tmux", "send-keys", "-t", session, "-l", key[1]])
        else:
            run(["tmux", "send-keys", "-t", session, key])
        time.sleep(0.05)
    time.sleep(0.8)
    text = subprocess.run(["tmux", "capture-pane", "-p", "-e", "-N", "-t", session],
                          check=True, capture_output=True, text=True).stdout
    subprocess.run(["tmux", "kill-session", "-t", session], stderr=subprocess.DEVNULL)
    return text


def colour_256(index):
    if index < 16:
        return ANSI16[index]
    if index < 232:
        index -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (levels[index // 36], levels[(index // 6) % 6], levels[index % 6])
    grey = 8 + (index - 232) * 10
    return "#%02x%02x%02x" % (grey, grey, grey)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.foreground = None
        self.background = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def apply(self, parameters):
        codes = [int(code) if code else 0 for code in parameters.split(";")] if parameters else [0]
        index = 0
        while index < len(codes):
            code = codes[index]
            if code == 0:
                self.reset()
            elif code == 1:
                self.bold = True
            elif code == 2:
                self.dim = True
            elif code == 3:
                self.italic = True
            elif code == 4:
                self.underline = True
            elif code == 7:
                self.reverse = True
            elif code == 22:
                self.bold = self.dim = False
            elif code == 23:
                self.italic = False
            elif code == 24:
                self.underline = False
            elif code == 27:
                self.reverse = False
            elif 30 <= code <= 37:
                self.foreground = ANSI16[code - 30]
            elif 90 <= code <= 97:
                self.foreground = ANSI16[code - 90 + 8]
            elif code == 39:
                self.foreground = None
            elif 40 <= code <= 47:
                self.background = ANSI16[code - 40]
            elif 100 <= code <= 107:
                self.background = ANSI16[code - 100 + 8]
            elif code == 49:
                self.background = None
            elif code in (38, 48) and index + 1 < len(codes):
                if codes[index + 1] == 5 and index + 2 < len(codes):
                    colour = colour_256(codes[index + 2])
                    index += 2
                elif codes[index + 1] == 2 and index + 4 < len(codes):
                    colour = "#%02x%02x%02x" % tuple(codes[index + 2:index + 5])
                    index += 4
                else:
                    colour = None
                if code == 38:
                    self.foreground = colour
                else:
                    self.background = colour
            index += 1

    def css(self):
        foreground = self.foreground or DEFAULT_FOREGROUND
        background = self.background or DEFAULT_BACKGROUND
        if self.reverse:
            foreground, background = background, foreground
        parts = [f"color:{foreground}", f"background:{background}"]
        if self.bold:
            parts.append("font-weight:bold")
        if self.dim:
            parts.append("opacity:0.6")
        if self.italic:
            parts.append("font-style:italic")
        if self.underline:
            parts.append("text-decoration:underline")
        return ";".join(parts)


def width_of(character):
    if unicodedata.combining(character):
        return 0
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def to_html(text, size):
    columns, rows = size
    style = Style()
    cells = []
    for row, line in enumerate(text.split("\n")[:rows]):
        column = 0
        index = 0
        while index < len(line):
            character = line[index]
            if character == "\x1b" and line[index + 1:index + 2] == "[":
                end = index + 2
                while end < len(line) and not ("@" <= line[end] <= "~"):
                    end += 1
                if end < len(line) and line[end] == "m":
                    style.apply(line[index + 2:end])
                index = end + 1
                continue
            width = width_of(character)
            if column + width > columns:
                break
            if width == 0:
                index += 1
                continue
            cells.append(
                f'<span class="c" style="left:{column * CELL_WIDTH}px;top:{row * CELL_HEIGHT}px;'
                f'width:{width * CELL_WIDTH}px;{style.css()}{WIDE if width == 2 else ""}">'
                f'{html.escape(character)}</span>')
            column += width
            index += 1
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body {{ margin:0; background:{DEFAULT_BACKGROUND}; }}
#screen {{ position:relative; width:{columns * CELL_WIDTH}px; height:{rows * CELL_HEIGHT}px; }}
.c {{ position:absolute; height:{CELL_HEIGHT}px; line-height:{CELL_HEIGHT}px; text-align:center;
      font-size:17px; white-space:pre; overflow:visible;
      font-family:'DejaVu Sans Mono','Noto Sans Mono CJK KR','Noto Sans CJK KR',monospace; }}
</style></head><body><div id="screen">{''.join(cells)}</div></body></html>"""


def screenshot(page, picture, size):
    columns, rows = size
    profile = tempfile.mkdtemp(prefix="qipan-chromium-")
    try:
        run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
             f"--window-size={columns * CELL_WIDTH},{rows * CELL_HEIGHT}",
             f"--screenshot={picture}", "file://" + page],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main():
    wanted = sys.argv[1:]
    for tool in ("tmux", "chromium"):
        if shutil.which(tool) is None:
            sys.exit(f"screenshots: {tool} is not installed (apt-get install {tool})")
    if not os.path.exists(BINARY):
        sys.exit(f"screenshots: {BINARY} is missing; run `cargo build --release` first")
    os.makedirs(OUTPUT, exist_ok=True)
    for name, size, arguments, keys, *config in SCENES:
        if wanted and not any(part in name for part in wanted):
            continue
        home = tempfile.mkdtemp(prefix="qipan-home-")
        try:
            text = capture(name, size, arguments, keys, home, *config)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        with open(os.path.join(OUTPUT, name + ".ansi"), "w", encoding="utf-8") as file:
            file.write(text)
        page = os.path.join(tempfile.gettempdir(), f"qipan-{name}.html")
        with open(page, "w", encoding="utf-8") as file:
            file.write(to_html(text, size))
        picture = os.path.join(OUTPUT, name + ".png")
        screenshot(page, picture, size)
        print(f"{picture}: {size[0]}x{size[1]}")


if __name__ == "__main__":
    main()
