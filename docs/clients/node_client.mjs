// A Node.js front end (standard library only): play one whole game against `fof engine` on stdio.
//
//   node docs/clients/node_client.mjs [--engine "fof engine"] [--game strike_force_one] [--side soviet]
//                                [--bot heuristic] [--seed 1]
//
// It starts the engine as a child process, writes one JSON request per line, reads one reply
// per line, plays its side with seeded pseudo-random legal actions and prints the result as JSON.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const engineCommand = (args.engine || "fof engine").split(" ");
const game = args.game || "strike_force_one";
const bot = args.bot || "heuristic";
let seed = parseInt(args.seed || "1", 10);
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

const engine = spawn(engineCommand[0], engineCommand.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: engine.stdout });
const waiting = [];
lines.on("line", (line) => waiting.shift()(JSON.parse(line)));

function ask(msg) {
  return new Promise((resolve, reject) => {
    waiting.push((reply) => (reply.ok ? resolve(reply) : reject(new Error(`${msg.cmd}: ${reply.error}`))));
    engine.stdin.write(JSON.stringify(msg) + "\n");
  });
}

try {
  const hello = await ask({ cmd: "hello" });
  const sides = hello.games.find((g) => g.name === game).sides;
  const side = args.side || sides[0];
  const other = sides.find((s) => s !== side);
  let reply = await ask({ cmd: "new", game, seed: parseInt(args.seed || "1", 10), bots: { [other]: bot } });
  const id = reply.game;
  let view = reply.view;
  let moves = 0;
  while (!view.terminal) {
    const choice = view.legal[Math.floor(random() * view.legal.length)].action;
    reply = await ask({ cmd: "play", game: id, action: choice, since: view.events_total });
    view = reply.view;
    moves += 1;
  }
  console.log(JSON.stringify({ side: view.side, result: view.result, decisions: view.decisions, moves }));
  engine.stdin.end();
} catch (err) {
  console.error(String(err));
  engine.kill();
  process.exitCode = 1;
}
