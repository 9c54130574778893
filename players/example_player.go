// A Bananagrams player in Go (the standard library only, one file), speaking protocol v2
// (protocol-v2.md). The same play as the Python, C++ and JavaScript examples: lay the hand out
// as one crossword of dictionary words, hardest letters first; peel when every tile is down;
// dump the hardest tile left over otherwise.
//
//	example_player_go [--dict WORDLIST]
//
// Build it from this file alone with Go (Debian's golang-go is enough: no module, nothing
// fetched, nothing of the host needed). Installed, copy it into a folder of your own first:
//
//	cp /usr/share/bananagrams-host/players/example_player.go .
//	go build -o example_player_go example_player.go
//
// and play it: bananagrams-host ./example_player_go bananagrams-reference-bot
//
// The word list must be the game's: --dict WORDLIST if given; else the file the host names in
// $BANANAGRAMS_WORDLIST (the list the game is judged by, the host's own or the organiser's);
// else, run by hand, the host's built-in list, read from its installed file (the build of this
// tree sets defaultDict to the tree's own wordlist/scowl-80.txt). If it cannot be read, the
// player says which file and why in one line on stderr and exits 1, before sending anything.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

var defaultDict = "/usr/share/bananagrams-host/wordlist/scowl-80.txt"

const hardestFirst = "QZXJKVWYBFHGMPCUDLOTNSRAIE"

// Counts are letter counts, A to Z.
type Counts [26]int

func countsOf(letters string) (c Counts) {
	for _, l := range letters {
		c[l-'A']++
	}
	return c
}

func (c Counts) total() (n int) {
	for _, k := range c {
		n += k
	}
	return n
}

type word struct {
	text    string
	letters Counts
}

// cannotRead says in one line on stderr why the word list cannot be read, and exits: nothing
// has been sent.
func cannotRead(path string, why string) {
	fmt.Fprintf(os.Stderr, "example_player_go: cannot read the word list %s: %s\n", path, why)
	os.Exit(1)
}

// loadWords: words of two letters or more, upper case, longest first (then alphabetical).
func loadWords(path string) []word {
	text, err := os.ReadFile(path)
	if err != nil {
		var failed *os.PathError
		if errors.As(err, &failed) {
			err = failed.Err // "no such file or directory", without the path again
		}
		cannotRead(path, err.Error())
	}
	unique := map[string]bool{}
	for _, line := range strings.Split(string(text), "\n") {
		w := strings.TrimSpace(line)
		ok := len(w) >= 2
		for _, c := range w {
			ok = ok && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
		}
		if ok {
			unique[strings.ToUpper(w)] = true
		}
	}
	if len(unique) == 0 {
		cannotRead(path, "it holds no words of two letters or more")
	}
	words := make([]word, 0, len(unique))
	for w := range unique {
		words = append(words, word{w, countsOf(w)})
	}
	sort.Slice(words, func(i, j int) bool {
		a, b := words[i].text, words[j].text
		return len(a) > len(b) || len(a) == len(b) && a < b
	})
	return words
}

// lacking: how many letters of the word the hand lacks.
func lacking(w *word, hand *Counts) (missing int) {
	for i := range hand {
		if d := w.letters[i] - hand[i]; d > 0 {
			missing += d
		}
	}
	return missing
}

type cell struct{ x, y int }

type tile struct {
	at     cell
	letter byte
}

// lay: the new tiles for the word at (x, y) going (dx, dy), if it crosses only what it shares
// and the hand has the rest; nil otherwise.
func lay(cells map[cell]byte, text string, x, y, dx, dy int, left *Counts) []tile {
	n := len(text)
	if _, ok := cells[cell{x - dx, y - dy}]; ok {
		return nil
	}
	if _, ok := cells[cell{x + dx*n, y + dy*n}]; ok {
		return nil
	}
	var placed []tile
	var need Counts
	for k := 0; k < n; k++ {
		at := cell{x + dx*k, y + dy*k}
		if here, ok := cells[at]; ok {
			if here != text[k] {
				return nil
			}
			continue
		}
		// A new tile may not touch anything sideways.
		_, side1 := cells[cell{at.x + dy, at.y + dx}]
		_, side2 := cells[cell{at.x - dy, at.y - dx}]
		if side1 || side2 {
			return nil
		}
		placed = append(placed, tile{at, text[k]})
		need[text[k]-'A']++
	}
	for i := range need {
		if need[i] > left[i] {
			return nil
		}
	}
	if len(placed) == 0 {
		return nil
	}
	return placed
}

// build: a crossword of as much of the hand as it can place, and the tiles left over.
func build(hand Counts, words []word) (map[cell]byte, Counts) {
	size := hand.total()
	var usable []*word
	for i := range words {
		if len(words[i].text) <= size+1 && lacking(&words[i], &hand) <= 1 {
			usable = append(usable, &words[i])
		}
	}
	cells := map[cell]byte{}
	left := hand
	var start *word
	for _, w := range usable {
		if lacking(w, &hand) == 0 {
			start = w
			break
		}
	}
	if start == nil {
		return cells, left
	}
	var anchors []cell
	for i := range start.text {
		cells[cell{i, 0}] = start.text[i]
		left[start.text[i]-'A']--
		anchors = append(anchors, cell{i, 0})
	}
	// The hand only shrinks and the grid only fills: each tile is tried as an anchor once.
	for a := 0; a < len(anchors) && left.total() > 0; a++ {
		at := anchors[a]
		anchor := cells[at]
		spare := left
		spare[anchor-'A']++ // the word may use the anchor's tile, already on the grid
		for _, w := range usable {
			if len(w.text) > left.total()+1 || strings.IndexByte(w.text, anchor) < 0 ||
				lacking(w, &spare) > 0 {
				continue
			}
			var spot []tile
			for i := 0; i < len(w.text) && spot == nil; i++ {
				if w.text[i] == anchor {
					if spot = lay(cells, w.text, at.x-i, at.y, 1, 0, &left); spot == nil {
						spot = lay(cells, w.text, at.x, at.y-i, 0, 1, &left)
					}
				}
			}
			if spot != nil {
				for _, t := range spot {
					cells[t.at] = t.letter
					anchors = append(anchors, t.at)
					left[t.letter-'A']--
				}
				break
			}
		}
	}
	return cells, left
}

// gridText: the grid as the protocol writes it: width, height (3 digits each), then the rows.
func gridText(cells map[cell]byte) string {
	first := true
	var x0, x1, y0, y1 int
	for c := range cells {
		if first || c.x < x0 {
			x0 = c.x
		}
		if first || c.x > x1 {
			x1 = c.x
		}
		if first || c.y < y0 {
			y0 = c.y
		}
		if first || c.y > y1 {
			y1 = c.y
		}
		first = false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%03d%03d", x1-x0+1, y1-y0+1)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if l, ok := cells[cell{x, y}]; ok {
				b.WriteByte(l)
			} else {
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// send: os.Stdout is unbuffered, so every message leaves at once.
func send(message string) {
	if _, err := os.Stdout.WriteString(message); err != nil {
		os.Exit(0) // the host has gone
	}
}

func main() {
	dict := os.Getenv("BANANAGRAMS_WORDLIST")
	if dict == "" {
		dict = defaultDict
	}
	for i := 1; i < len(os.Args); i++ {
		if os.Args[i] == "--dict" {
			if i+1 == len(os.Args) {
				fmt.Fprintln(os.Stderr, "example_player_go: --dict needs a file")
				os.Exit(1)
			}
			dict = os.Args[i+1]
		}
	}
	words := loadWords(dict)
	var hand Counts
	add := func(letters string) {
		for _, l := range letters {
			hand[l-'A']++
		}
	}
	number := func(m string) int { n, _ := strconv.Atoi(m[1:5]); return n }
	seen := 0        // the newest peel whose tile is in the hand
	waiting := true  // for the hand, or the answer to our last move
	refused := false // a dump was refused: none again until a new tile comes
	send("v002R")
	in := bufio.NewReader(os.Stdin)
	for {
		m, err := in.ReadString('.')
		if err != nil {
			return // the end of input: the game is over
		}
		m = strings.TrimSuffix(m, ".")
		if m == "" {
			continue
		}
		switch m[0] {
		case 'H': // H nnnn letters: the hand
			seen, waiting = number(m), false
			add(m[5:])
		case 'P': // P nnnn tile bunch: a peel dealt us a tile
			seen, refused = number(m), false
			add(m[5:6])
		case 'A': // our peel was accepted
			waiting = false
		case 'D': // our dump's three tiles
			waiting = false
			add(m[1:])
		case 'N': // stale: the tiles we lacked came in P messages
			if n := number(m); n > seen {
				seen = n
			}
			waiting = false
		case 'X': // dump refused: the tile stays ours
			add(m[1:2])
			waiting, refused = false, true
		case 'E': // the game is over for us
			return
		} // V002.: the version (v003 would add our seat)
		if waiting {
			continue
		}
		cells, left := build(hand, words)
		if left.total() == 0 {
			send(fmt.Sprintf("P%04d%s", seen, gridText(cells)))
			waiting = true
		} else if !refused {
			for _, l := range hardestFirst {
				if left[l-'A'] > 0 {
					hand[l-'A']--
					send("D" + string(l))
					break
				}
			}
			waiting = true
		}
	}
}
