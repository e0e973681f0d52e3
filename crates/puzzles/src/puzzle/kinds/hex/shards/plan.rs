//! How a shard's rows are arranged: their order ([`RowOrder`]) and how many are streamed
//! ([`StreamedRows`]), together a [`RowPlan`].

/// In which order the top half's rows are run: which rows are the source (run by dynamic
/// programming) and which are streamed ([`RowPlan`] says how many).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowOrder {
    /// Source rows from the top edge down; the last rows (the longest, next to the middle)
    /// streamed. The smaller source layer: the default.
    #[default]
    TopDown,
    /// Source rows from the middle up; the first rows (the shortest) streamed. Different
    /// intermediate layers, but a source layer 7-8 times the top-down one (width 21, two
    /// streamed rows: 23.2 million states against 3.1 million).
    BottomUp,
    /// Source row `h-1`, then the rows from the top edge down; the rows just above `h-1`
    /// streamed. Every intermediate layer differs from the top-down ones (each holds row
    /// `h-1`): the cross-check meant to fit in memory.
    MiddleFirst,
}

impl RowOrder {
    /// Every order, for the command line and the experiment file.
    pub const ALL: [RowOrder; 3] = [RowOrder::TopDown, RowOrder::BottomUp, RowOrder::MiddleFirst];

    /// Its name (`top-down`, `bottom-up` or `middle-first`).
    pub fn name(self) -> &'static str {
        match self {
            RowOrder::TopDown => "top-down",
            RowOrder::BottomUp => "bottom-up",
            RowOrder::MiddleFirst => "middle-first",
        }
    }

    /// The order of this name, if any.
    pub fn from_name(name: &str) -> Option<RowOrder> {
        RowOrder::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// How many top rows are streamed (extended from every source state, only the shard's class
/// kept) instead of run by dynamic programming. One more streamed row makes the source layer
/// smaller by that row's growth (3-4 times near the middle, so a shard fits in less memory)
/// and the stream longer by the same factor and more (the states the source step would have
/// merged are extended one by one): two rows, the faster, are the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StreamedRows {
    /// The last two top rows streamed.
    #[default]
    Two,
    /// The last three top rows streamed.
    Three,
}

impl StreamedRows {
    /// Every choice, fewest rows first.
    pub const ALL: [StreamedRows; 2] = [StreamedRows::Two, StreamedRows::Three];

    /// The number of rows.
    pub fn count(self) -> usize {
        match self {
            StreamedRows::Two => 2,
            StreamedRows::Three => 3,
        }
    }

    /// The choice of `count` rows (2 or 3), if any.
    pub fn from_count(count: usize) -> Option<StreamedRows> {
        StreamedRows::ALL.into_iter().find(|s| s.count() == count)
    }
}

/// Which top rows a shard runs by dynamic programming (the source) and which it streams, and
/// in which order: every plan gives the same shard counts through different intermediate
/// layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowPlan {
    /// The order of the rows.
    pub order: RowOrder,
    /// How many rows are streamed.
    pub streamed: StreamedRows,
}

impl RowPlan {
    /// The plan of `order` with `streamed` rows.
    pub fn new(order: RowOrder, streamed: StreamedRows) -> RowPlan {
        RowPlan { order, streamed }
    }

    /// The source rows (in the order they are run) and the streamed rows, for `half` top
    /// rows (all of them streamed when there are fewer than the plan streams).
    pub fn rows(self, half: usize) -> (Vec<usize>, Vec<usize>) {
        let s = half.min(self.streamed.count());
        match self.order {
            RowOrder::TopDown => ((0..half - s).collect(), (half - s..half).collect()),
            RowOrder::BottomUp => ((s..half).rev().collect(), (0..s).rev().collect()),
            RowOrder::MiddleFirst if half > s => {
                let source = std::iter::once(half - 1).chain(0..half - 1 - s).collect();
                (source, (half - 1 - s..half - 1).collect())
            }
            RowOrder::MiddleFirst => RowPlan::new(RowOrder::BottomUp, self.streamed).rows(half),
        }
    }

    /// Its name: the order, with `, 3 streamed rows` unless two are.
    pub fn name(self) -> String {
        match self.streamed {
            StreamedRows::Two => self.order.name().into(),
            s => format!("{}, {} streamed rows", self.order.name(), s.count()),
        }
    }
}
