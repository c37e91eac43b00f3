// Replays review histories through ts-fsrs (the reference implementation of
// FSRS, pinned in package.json) and through padlab's (tests/fsrs/replay),
// and compares every review: state, learning step, interval in days, due
// time to the second, difficulty and stability to 1e-6 (the reference
// rounds them to 8 decimals). Fuzz is off on both sides; the learning steps
// are each side's defaults (1 and 10 minutes; relearning 10 minutes), and
// none for the histories of lesson questions (their first grade is the
// lesson's answer: again or good, straight to review; lesson_review.h).
//
//   node compare.mjs REPLAY_PROGRAM      prints "ok ..." / "FAIL ..." lines and a summary
import { execFileSync } from 'node:child_process'
import { createEmptyCard, fsrs, generatorParameters, State } from 'ts-fsrs'

const replay = process.argv[2]
const TOL = 1e-6
const START = Date.UTC(2026, 0, 5, 9, 0, 0) // Monday 2026-01-05 09:00 UTC

// A small deterministic generator (an LCG), so that the histories are the
// same on every run.
let seed = 20260105
const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)

// A history: grades, and for each one when it is given relative to the
// card's due time: on time, early (the same day, or days early), late.
function histories() {
  const out = []
  const patterns = [
    [3, 3, 3, 3, 3, 3], [4, 4, 4, 4], [1, 1, 3, 3, 3], [2, 2, 2, 3, 3], [3, 3, 1, 3, 3, 3],
    [4, 1, 3, 4, 3], [1, 2, 3, 4, 4], [3, 3, 3, 1, 1, 3, 3], [2, 3, 2, 3, 2, 3], [3, 4, 3, 4, 3, 4],
  ]
  for (let h = 0; h < 24; h++) {
    const grades = h < patterns.length ? patterns[h] : Array.from({ length: 4 + Math.floor(next() * 6) }, () => 1 + Math.floor(next() * 4))
    const gaps = grades.map(() => {
      const u = next()
      return u < 0.5 ? 'due' : u < 0.65 ? 'same-day' : u < 0.8 ? 'early' : 'late'
    })
    out.push({ name: `h${String(h + 1).padStart(2, '0')}`, grades, gaps, retention: h % 4 === 3 ? 0.85 : 0.9 })
  }
  const lessons = [[1, 3, 3, 3, 3], [3, 3, 3, 3, 3], [1, 1, 3, 3], [3, 1, 3, 3, 3], [1, 3, 1, 3, 4], [3, 2, 3, 1, 3]]
  lessons.forEach((grades, k) => {
    const gaps = grades.map((_, i) => (i === 0 ? 'due' : ['due', 'late', 'early', 'same-day'][(i + k) % 4]))
    out.push({ name: `h${String(out.length + 1).padStart(2, '0')}`, grades, gaps, retention: 0.9, lesson: true })
  })
  return out
}

// The time of each review: the first at START (+ the history's hour), the
// next ones from the card's due time and the gap's kind.
function ts_replay(hist) {
  const f = fsrs(generatorParameters({ enable_fuzz: false, request_retention: hist.retention, ...(hist.lesson ? { learning_steps: [] } : {}) }))
  let card = createEmptyCard(new Date(START + 3600e3 * Number(hist.name.slice(1))))
  let t = card.due.getTime()
  const rows = []
  hist.grades.forEach((g, i) => {
    if (i > 0) {
      const due = card.due.getTime(), day = 86400e3
      const kind = hist.gaps[i]
      if (kind === 'due') t = Math.max(due, t)
      else if (kind === 'same-day') t = t + 2 * 3600e3
      else if (kind === 'early') t = Math.max(t + 60e3, due - day * Math.floor(card.scheduled_days / 2))
      else t = due + day * (1 + Math.floor(card.scheduled_days / 2)) + 3600e3
    }
    const { card: after } = f.next(card, new Date(t), g)
    card = after
    rows.push({ t: t / 1000, grade: g, state: after.state, step: after.learning_steps, d: after.difficulty, s: after.stability,
                due: after.due.getTime() / 1000, ivl: after.scheduled_days, reps: after.reps, lapses: after.lapses })
  })
  return rows
}

const all = histories()
let ok = 0, bad = 0, reviews = 0, maxd = 0, maxs = 0
const stateName = s => State[s].toLowerCase()
for (const hist of all) {
  const ref = ts_replay(hist)
  const input = ref.map(r => `${hist.name} ${r.t} ${r.grade}`).join('\n') + '\n'
  const mine = execFileSync(replay, [String(hist.retention), ...(hist.lesson ? ['lesson'] : [])], { input }).toString().trim().split('\n').map(l => JSON.parse(l))
  const problems = []
  ref.forEach((r, i) => {
    const m = mine[i]
    reviews++
    if (!m) return problems.push(`review ${i + 1}: padlab printed nothing`)
    maxd = Math.max(maxd, Math.abs(m.d - r.d)), maxs = Math.max(maxs, Math.abs(m.s - r.s))
    const same = m.state === r.state && m.step === r.step && m.ivl === r.ivl && m.due === r.due && m.reps === r.reps &&
      m.lapses === r.lapses && Math.abs(m.d - r.d) <= TOL && Math.abs(m.s - r.s) <= TOL
    if (!same)
      problems.push(`review ${i + 1} (grade ${r.grade}): ts-fsrs ${stateName(r.state)} step ${r.step} D ${r.d} S ${r.s} ivl ${r.ivl} due ${r.due}; ` +
        `padlab ${stateName(m.state)} step ${m.step} D ${m.d} S ${m.s} ivl ${m.ivl} due ${m.due}`)
  })
  const last = ref[ref.length - 1]
  if (problems.length) { bad++; console.log(`FAIL fsrs: ${hist.name}`); problems.forEach(p => console.log(`     ${p}`)) }
  else {
    ok++
    console.log(`ok   fsrs: ${hist.name}${hist.lesson ? ', a lesson question (no learning steps)' : ''} (retention ${hist.retention}, grades ${hist.grades.join('')}, gaps ${hist.gaps.slice(1).join(',')}): ` +
      `last D ${last.d.toFixed(4)} S ${last.s.toFixed(4)} ivl ${last.ivl}`)
  }
}
console.log(`summary: ${all.length} histories, ${reviews} reviews, ${ok} agree, ${bad} differ; largest |dD| ${maxd.toExponential(1)}, |dS| ${maxs.toExponential(1)}`)
process.exit(bad ? 1 : 0)
