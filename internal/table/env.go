package table

import "strings"

// EastAsianFromEnv says whether East Asian ambiguous-width characters take
// two columns on the user's terminal, as the environment tells (lookup is
// os.LookupEnv or a test's stand-in): RUNEWIDTH_EASTASIAN=1/0 (also
// on/off, true/false, yes/no) decides when set; otherwise a terminal known
// to draw them narrow (TERM_PROGRAM vscode, iTerm, kitty, …; TERM xterm*,
// screen*, tmux*; VTE_VERSION, ALACRITTY_LOG or TERM_PROGRAM_WSL set) says
// no; otherwise a CJK locale (LC_ALL, else LC_CTYPE, else LANG: zh, ja, ko,
// or a region cn, tw, hk, mo, jp, kr, kp, sg) says yes. This is the rule the
// tables used before harpe drew them itself (tablewriter's), kept so that
// they keep their widths.
func EastAsianFromEnv(lookup func(string) (string, bool)) bool {
	get := func(k string) string {
		v, _ := lookup(k)
		return v
	}
	switch strings.ToLower(get("RUNEWIDTH_EASTASIAN")) {
	case "0", "off", "false", "no":
		return false
	case "1", "on", "true", "yes":
		return true
	}
	if modernTerminal(get) {
		return false
	}
	return cjkLocale(get)
}

var narrowTerminals = map[string]bool{
	"vscode": true, "visual studio code": true,
	"iterm.app": true, "iterm2": true,
	"windows terminal": true, "windowsterminal": true,
	"alacritty": true, "kitty": true,
	"hyper": true, "tabby": true, "terminus": true, "fluentterminal": true,
	"warp": true, "ghostty": true, "rio": true,
	"jetbrains-jediterm": true,
	"xterm-kitty":        true, "xterm-ghostty": true, "wezterm": true,
}

func modernTerminal(get func(string) string) bool {
	if narrowTerminals[strings.ToLower(get("TERM_PROGRAM"))] {
		return true
	}
	if get("TERM_PROGRAM_WSL") != "" || get("VTE_VERSION") != "" || get("ALACRITTY_LOG") != "" {
		return true
	}
	term := strings.ToLower(get("TERM"))
	return narrowTerminals[term] ||
		strings.Contains(term, "xterm") && !strings.Contains(term, "xterm-mono") ||
		strings.Contains(term, "screen") || strings.Contains(term, "tmux")
}

func cjkLocale(get func(string) string) bool {
	locale := get("LC_ALL")
	if locale == "" {
		locale = get("LC_CTYPE")
	}
	if locale == "" {
		locale = get("LANG")
	}
	if locale == "" || locale == "C" || locale == "POSIX" {
		return false
	}
	locale, _, _ = strings.Cut(locale, ".")
	locale, _, _ = strings.Cut(locale, "@")
	locale = strings.ToLower(locale)
	for _, p := range []string{"zh", "ja", "ko", "chi", "zho", "jpn", "kor", "chinese", "japanese", "korean"} {
		if strings.HasPrefix(locale, p) {
			return true
		}
	}
	parts := strings.Split(locale, "_")
	for _, region := range parts[1:] {
		switch region {
		case "cn", "tw", "hk", "mo", "jp", "kr", "kp", "sg":
			return true
		}
	}
	return false
}
