/**
 * Small stop-word lists for lexical retrieval. They remove function words that would otherwise match
 * almost every memory entry (and so only add noise to BM25 / TF-IDF scores); content words, numbers
 * and negations that change a requirement ("not", "不", "没") are kept on purpose.
 */

/** English function words, compared before stemming, after lower-casing and dropping apostrophes. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if then else so as of at by for with about against between into through during before after " +
    "above below to from up down in out on off over under again further once here there when where why how all any both " +
    "each few more most other some such only own same than too very can will just should would could might must shall may " +
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its " +
    "itself they them their theirs themselves what which who whom whose this that these those am is are was were be been " +
    "being have has had having do does did doing im ive id ill youre youve youd youll hes shes its were theyre theyve " +
    "theyd wed well thats theres whats lets also yet s t d ll m re ve"
  ).split(" "),
);

/** Chinese function words and particles that jieba cuts as tokens of their own. */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "的 了 着 过 地 得 之 是 在 和 与 及 以及 并 并且 或 或者 而 而且 也 都 就 才 又 还 把 被 对 对于 从 向 给 让 由 于 " +
    "为 为了 因为 所以 如果 虽然 但是 但 可是 然后 那么 这 那 这个 那个 这些 那些 这样 那样 这里 那里 哪 哪里 哪个 " +
    "我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 啊 呀 吧 吗 呢 哦 嗯 哈 啦 嘛 么 呗 一个 一些 有些 些 个 " +
    "之后 之前 以后 以前 时候 什么 怎么 怎样 如何 为什么 可以 能 会 要 想 将 已经 正在 一下 一点 非常 很 太 更 最 比较"
  ).split(" "),
);
