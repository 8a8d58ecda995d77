//! The driver. SQLite connections cannot be copied, and a snapshot cannot
//! hold a connection's open transaction, so a state inside a transaction is
//! reached by replaying a path. Depth-first order keeps that rare: the
//! world that reached a new state goes straight on to its last successor; a
//! state with no transaction open keeps its world and copies it (its
//! committed rows into a spare database) for the successors before that;
//! a state inside a transaction goes on to its first successor, and the
//! others replay the moves from the nearest state below it on the stack
//! that kept its world. Spare worlds are started over, never rebuilt:
//! opening a database and preparing its statements costs far more than the
//! SQL of a move. The whole state graph is kept, so a breadth-first pass
//! over it afterwards gives every state its shortest path from the start:
//! counterexamples are shortest ones, whatever order the states were found
//! in.

use super::CheckError;
use super::bounds::Bounds;
use super::enabled::{Choice, Cost, Used, enabled, was_blocked};
use super::fingerprint::fingerprint;
use super::packed::Packed;
use super::property::{Judgement, classify, judge};
use super::watch::Watch;
use crate::sim::Outcome;
use crate::sim::{Move, SimError, Strategy, World};
use std::collections::{HashMap, VecDeque};

/// Every schedule replays with this seed (it only names receipts).
pub const SEED: u64 = 0;

const NONE: u32 = u32::MAX;

pub struct Node {
    /// The moves enabled here, as indices into `Graph::choices`: a few
    /// dozen distinct moves serve every state, kept once.
    choices: Vec<u16>,
    /// Successor states: (state, index of the choice that leads there),
    /// self-loops left out.
    pub succ: Vec<(u32, u16)>,
    /// Where depth-first search first came from, to replay this state.
    found_from: (u32, u16),
    pub used: Used,
    pub judgement: Judgement,
    /// In a quiet state (no progress without another fault): the class of
    /// each fact, as bits, and the worst one.
    pub classes: u8,
    pub worst: Option<Outcome>,
    /// In a quiet state: a crash ended every receive of each message the
    /// broker dead-lettered (`World::every_receive_crashed`).
    pub unfinishable: bool,
    /// Shortest distance from the start, and the predecessor on one such
    /// path; filled in after the search.
    pub depth: u32,
    shortest_from: (u32, u16),
}

pub struct Graph {
    pub nodes: Vec<Node>,
    /// Every distinct move any state enables.
    choices: Vec<Choice>,
    /// States in breadth-first order: nearest to the start first.
    pub order: Vec<u32>,
    /// Moves applied after a replay.
    pub transitions: u64,
    /// The start, plus one per state reached again (a copy or a replay).
    pub replays: u64,
    /// States not expanded because they sit at `max_depth`.
    pub truncated: u64,
}

struct Explorer<'a> {
    strategy: &'a Strategy,
    watch: &'a Watch,
    bounds: &'a Bounds,
    setup: crate::sim::Setup,
    graph: Graph,
    /// Looked up once per move: a fast hash (the keys are the checker's own
    /// data, and nothing iterates over the map, so its order never shows).
    seen: HashMap<Packed, u32, foldhash::fast::FixedState>,
    /// Worlds nobody needs any more: a copy or a replay reuses one and its
    /// database instead of opening a new one.
    spares: Vec<World>,
    /// Worlds this search has made or taken: each holds a database (on
    /// PostgreSQL a schema and a connection per consumer, and a server
    /// allows a hundred or so connections in all).
    worlds: usize,
}

/// The most worlds a search keeps for copying. Past it, states are reached
/// again by replaying moves instead, which costs time, not connections.
const MOST_WORLDS: usize = 6;

struct Frame {
    node: u32,
    next: usize,
    /// A world standing in this state: until its first move is taken, or,
    /// when it can be copied, until its last one, so that the moves between
    /// copy it instead of replaying the path from the start, and so do the
    /// states below it that cannot be copied themselves.
    world: Option<World>,
    dfs_depth: usize,
}

pub fn explore(strategy: &Strategy, bounds: &Bounds, watch: &Watch) -> Result<Graph, CheckError> {
    let mut ex = Explorer {
        strategy,
        watch,
        bounds,
        setup: bounds.setup(),
        graph: Graph {
            nodes: Vec::new(),
            choices: Vec::new(),
            order: Vec::new(),
            transitions: 0,
            replays: 0,
            truncated: 0,
        },
        seen: HashMap::default(),
        spares: Vec::new(),
        worlds: 0,
    };
    let start = ex.fresh()?;
    let used = Used::new(ex.setup.consumers.len());
    let (root, _) = ex.visit(&start, (NONE, 0), used)?;
    let mut stack = vec![Frame {
        node: root,
        next: 0,
        world: Some(start),
        dfs_depth: 0,
    }];
    // The stack's length is shared as the "queue" of the progress line.
    watch.stack_moved(true);
    while let Some(top) = stack.last_mut() {
        let n = top.node;
        let node = &ex.graph.nodes[n as usize];
        if top.next >= node.choices.len() || top.dfs_depth >= ex.bounds.max_depth {
            if top.next < node.choices.len() {
                ex.graph.truncated += 1;
            }
            if let Some(world) = stack.pop().and_then(|frame| frame.world) {
                ex.spares.push(world);
            }
            watch.stack_moved(false);
            continue;
        }
        let index = top.next;
        top.next += 1;
        let last = top.next == node.choices.len();
        let choice = ex.graph.choices[node.choices[index] as usize].clone();
        let used = node.used.spend(choice.cost);
        let depth = top.dfs_depth + 1;
        let mut world = match top.world.take() {
            // No later move from here needs this world, or it cannot be
            // copied: it goes on itself. So it does when a copy would
            // need one world more than the search may keep (the moves
            // after this one then start from a copy of a world below).
            Some(world) if last || !world.forkable() || ex.at_most_worlds() => world,
            Some(world) => {
                let copy = ex.fork(&world)?;
                top.world = Some(world);
                copy
            }
            None => ex.reach(&stack)?,
        };
        world.apply(&choice.mv)?;
        ex.graph.transitions += 1;
        if was_blocked(&world, &choice.mv) {
            ex.spares.push(world);
            continue;
        }
        let (child, new) = ex.visit(&world, (n, index as u16), used)?;
        let succ = &mut ex.graph.nodes[n as usize].succ;
        if child != n && !succ.iter().any(|&(c, _)| c == child) {
            succ.push((child, index as u16));
        }
        if new {
            if ex.graph.nodes.len() as u64 > watch.max_states {
                for _ in 0..stack.len() {
                    watch.stack_moved(false);
                }
                return Err(CheckError::Budget {
                    strategy: strategy.name.to_string(),
                    states: ex.graph.nodes.len() as u64,
                    max: watch.max_states,
                });
            }
            watch.stack_moved(true);
            stack.push(Frame {
                node: child,
                next: 0,
                world: Some(world),
                dfs_depth: depth,
            });
        } else {
            ex.spares.push(world);
        }
    }
    // The worlds' databases serve the next design's search.
    for world in ex.spares.drain(..) {
        let (db, holds) = world.into_database();
        watch.spare_database(db, holds);
    }
    ex.graph.shortest_paths(root);
    Ok(ex.graph)
}

impl Explorer<'_> {
    fn fresh(&mut self) -> Result<World, SimError> {
        self.graph.replays += 1;
        match self.spares.pop() {
            Some(world) => world.start_over(SEED),
            None => self.new_world(),
        }
    }

    /// A world at the start, on a database an earlier search left if there
    /// is one.
    /// No spare world, and as many made as a search may keep.
    fn at_most_worlds(&self) -> bool {
        self.spares.is_empty() && self.worlds >= MOST_WORLDS
    }

    fn new_world(&mut self) -> Result<World, SimError> {
        self.worlds += 1;
        let (setup, strategy) = (self.setup.clone(), self.strategy.clone());
        match self.watch.take_database() {
            Some((db, holds)) => World::on_database(db, &holds, setup, strategy, SEED),
            None => World::new(setup, strategy, SEED),
        }
    }

    /// A copy of `world`, on a spare world's database.
    fn fork(&mut self, world: &World) -> Result<World, SimError> {
        self.graph.replays += 1;
        let spare = match self.spares.pop() {
            Some(spare) => spare,
            None => self.new_world()?,
        };
        world.fork_onto(spare)
    }

    /// A world in the state of the top of `stack`, whose own world has
    /// gone on: a copy of the nearest state below it on the stack that kept
    /// its world, and the moves from there (on the stack, frame k went to
    /// frame k + 1 by its move `next - 1`); from the start if none did.
    fn reach(&mut self, stack: &[Frame]) -> Result<World, SimError> {
        let top = stack.len() - 1;
        let kept = stack[..top]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(k, f)| f.world.as_ref().filter(|w| w.forkable()).map(|w| (k, w)));
        let Some((from, kept)) = kept else {
            let path = self.graph.replay_path(stack[top].node);
            return self.replay(&path);
        };
        let mut world = self.fork(kept)?;
        world.set_replaying(true);
        for f in &stack[from..top] {
            let choice = self.graph.nodes[f.node as usize].choices[f.next - 1];
            world.apply(&self.graph.choices[choice as usize].mv)?;
        }
        world.set_replaying(false);
        Ok(world)
    }

    fn replay(&mut self, path: &[Move]) -> Result<World, SimError> {
        let mut world = self.fresh()?;
        world.set_replaying(true);
        for mv in path {
            world.apply(mv)?;
        }
        world.set_replaying(false);
        Ok(world)
    }

    /// Finds or adds the state `world` is in; true when it is new.
    fn visit(
        &mut self,
        world: &World,
        from: (u32, u16),
        used: Used,
    ) -> Result<(u32, bool), SimError> {
        let frame = world.frame()?;
        let fp = fingerprint(world, &frame, &used, self.bounds.symmetry).pack();
        if let Some(&id) = self.seen.get(&fp) {
            return Ok((id, false));
        }
        let enabled = enabled(world, self.bounds, &used);
        let quiet = enabled.iter().all(|c| c.cost != Cost::Free);
        let choices = enabled.into_iter().map(|c| self.graph.intern(c)).collect();
        let (classes, worst) = if quiet {
            let (bits, worst) = classify(&frame);
            (bits, Some(worst))
        } else {
            (0, None)
        };
        let unfinishable = quiet && world.every_receive_crashed();
        let id = self.graph.nodes.len() as u32;
        self.graph.nodes.push(Node {
            choices,
            succ: Vec::new(),
            found_from: from,
            used,
            judgement: judge(world, &frame),
            classes,
            worst,
            unfinishable,
            depth: 0,
            shortest_from: (NONE, 0),
        });
        self.seen.insert(fp, id);
        self.watch.found_state();
        Ok((id, true))
    }
}

impl Graph {
    fn intern(&mut self, choice: Choice) -> u16 {
        let at = match self.choices.iter().position(|c| *c == choice) {
            Some(at) => at,
            None => {
                self.choices.push(choice);
                self.choices.len() - 1
            }
        };
        u16::try_from(at).expect("fewer than 65,536 distinct moves within any bounds")
    }

    fn moves(&self, mut n: u32, link: impl Fn(&Node) -> (u32, u16)) -> Vec<Move> {
        let mut out = Vec::new();
        loop {
            let (parent, index) = link(&self.nodes[n as usize]);
            if parent == NONE {
                break;
            }
            let choice = self.nodes[parent as usize].choices[index as usize];
            out.push(self.choices[choice as usize].mv.clone());
            n = parent;
        }
        out.reverse();
        out
    }

    /// The path the search first took to `n`: any path will do for a replay.
    fn replay_path(&self, n: u32) -> Vec<Move> {
        self.moves(n, |node| node.found_from)
    }

    /// A shortest path from the start to `n`.
    pub fn path(&self, n: u32) -> Vec<Move> {
        self.moves(n, |node| node.shortest_from)
    }

    /// Breadth-first over the finished graph: depths, shortest paths, and
    /// the order in which to look for the first state with a property.
    fn shortest_paths(&mut self, root: u32) {
        let mut reached = vec![false; self.nodes.len()];
        let mut queue = VecDeque::from([root]);
        reached[root as usize] = true;
        while let Some(n) = queue.pop_front() {
            self.order.push(n);
            let depth = self.nodes[n as usize].depth;
            for i in 0..self.nodes[n as usize].succ.len() {
                let (child, index) = self.nodes[n as usize].succ[i];
                if !reached[child as usize] {
                    reached[child as usize] = true;
                    let c = &mut self.nodes[child as usize];
                    c.depth = depth + 1;
                    c.shortest_from = (n, index);
                    queue.push_back(child);
                }
            }
        }
    }

    /// How many distinct schedules lead from the start to each state, in
    /// the explored graph (identical consumers counted once). `None` if the
    /// graph has a cycle, which would make the count infinite.
    pub fn path_counts(&self) -> Option<Vec<u64>> {
        let n = self.nodes.len();
        let mut indegree = vec![0u32; n];
        for node in &self.nodes {
            for &(s, _) in &node.succ {
                indegree[s as usize] += 1;
            }
        }
        let mut counts = vec![0u64; n];
        if n == 0 {
            return Some(counts);
        }
        counts[0] = 1;
        let mut ready: Vec<u32> = (0..n as u32)
            .filter(|&i| indegree[i as usize] == 0)
            .collect();
        let mut done = 0;
        while let Some(i) = ready.pop() {
            done += 1;
            let here = counts[i as usize];
            for &(s, _) in &self.nodes[i as usize].succ {
                counts[s as usize] = counts[s as usize].saturating_add(here);
                indegree[s as usize] -= 1;
                if indegree[s as usize] == 0 {
                    ready.push(s);
                }
            }
        }
        (done == n).then_some(counts)
    }
}
