package bench

// The facts of the protocols, each read from its own source with the
// search tool; the source of every table is named above it.

// talesSource is where TALES's rules were read.
const talesSource = "microsoft/tale-suite: benchmark.py (commit 9035a201f3afc654f7ea421afe59b579144f3c2e), " +
	"tales/jericho/jericho_env.py (commit 926d0983b473b45b02429c17abae5673a7036220), " +
	"tales/jericho/games.json (commit 03467c5daba559292c69f46822f40b198c5e5f9a); " +
	"Jericho seeds: microsoft/jericho jericho/game_info.py (commit 0571736084a833d04ebea8c4865feaa238c25e4f)"

// talesGames are TALES's Jericho games: their names and the MD5 of the
// file each plays, from microsoft/tale-suite tales/jericho/games.json at
// commit 03467c5daba559292c69f46822f40b198c5e5f9a, in that file's order:
// 77 entries there (the TALES paper's 54 Jericho games and the ones added
// since). File is the file name games.json gives.
var talesGames = []Game{
	{Name: "905", File: "905.z5", MD5: "4c5067169b834d247a30bb08d1039896"},
	{Name: "acorncourt", File: "acorncourt.z5", MD5: "a61400439aa76f8faba3b8f01edd4a72"},
	{Name: "advent", File: "advent.z5", MD5: "ee2242e155fd8910921b0f8e04019a3a"},
	{Name: "adventureland", File: "adventureland.z5", MD5: "a42545bd17330ae5e6fed02270ccfb4a"},
	{Name: "afflicted", File: "afflicted.z8", MD5: "064272be87de7106192b6fb743c4dfc4"},
	{Name: "anchor", File: "anchor.z8", MD5: "c043df8624e0e1e9fda92f1a74b6e402"},
	{Name: "awaken", File: "awaken.z5", MD5: "9ba48c72d96ab3e7956a8570b12d34d6"},
	{Name: "balances", File: "balances.z5", MD5: "f2cb8f94a7e8df3b850a758da26fa387"},
	{Name: "ballyhoo", File: "ballyhoo.z3", MD5: "5d54e326815b0ed3aff8efb8ff02ef2f"},
	{Name: "curses", File: "curses.z5", MD5: "f06a42a29a5a4e6aa70958c9ae4c37cd"},
	{Name: "cutthroat", File: "cutthroat.z3", MD5: "216eeeba1c8017a77343dc8482f6f185"},
	{Name: "deephome", File: "deephome.z5", MD5: "5e56a6e5cdeecded434a8fd8012fc2c6"},
	{Name: "detective", File: "detective.z5", MD5: "822655c9be83e292e06d3d3b1d6a9734"},
	{Name: "dragon", File: "dragon.z5", MD5: "96d314997e5d3a5a793c83845977d44d"},
	{Name: "enchanter", File: "enchanter.z3", MD5: "ad3cdea88d81033fe29167688bd98c31"},
	{Name: "enter", File: "enter.z5", MD5: "4c48ba2c5523d78c5f7f9b7809d16b1d"},
	{Name: "gold", File: "gold.z5", MD5: "f275ddf32ce8a9e744d53c3b99c5a658"},
	{Name: "hhgg", File: "hhgg.z3", MD5: "6666389f60e0c8e4ceb08242a263bb52"},
	{Name: "hollywood", File: "hollywood.z3", MD5: "1ea91a064941a3f612b20833f0a47df7"},
	{Name: "huntdark", File: "huntdark.z5", MD5: "253b02c8012710577085b9fd3a155cb7"},
	{Name: "infidel", File: "infidel.z3", MD5: "2fe5b5693fa60b0cf8621402423994b1"},
	{Name: "inhumane", File: "inhumane.z5", MD5: "84d3ce7ccfafb873736490811a0cc78c"},
	{Name: "jewel", File: "jewel.z5", MD5: "1eef9c0fa009ca4adf4872cfc5249d45"},
	{Name: "karn", File: "karn.z5", MD5: "ec55791be814db3663ad1aec0d6b7690"},
	{Name: "kiiwii", File: "kiiwii.z5", MD5: "6c8a04ec6adff4a4cab98e89d87a19d8"},
	{Name: "stars", File: "stars.z5", MD5: "def7d72aa9085cff8988aacaa84613eb"},
	{Name: "lily", File: "lily.z5", MD5: "1ea30c4f5f20bc00ddbe8eddb93acc03"},
	{Name: "internal", File: "internal.z5", MD5: "72381aa65f38812ab02a9d1cb4a8cc54"},
	{Name: "noroom", File: "noroom.z5", MD5: "315505ce659aaa5217e4c9f22e390d88"},
	{Name: "pancakedetectives", File: "TheGreatPancakeDetectives.z5", MD5: "24b9db33ba5f6b7ec7c822f192ae96aa"},
	{Name: "banana", File: "banana.z5", MD5: "8415999d3c9f7ff50a0a1339283f3b5d"},
	{Name: "mrp", File: "mr-p.z5", MD5: "4780282041bf6c1f5952a5771b432e43"},
	{Name: "putpbaa", File: "PUTPBAA.z5", MD5: "5f45f6f8625f7b6304fd56cb3a88f77d"},
	{Name: "annoy", File: "annoy.z5", MD5: "c9aa2222b3fcb8f32f4587bc8c20e98c"},
	{Name: "theemptyroom", File: "TheEmptyRoom.z5", MD5: "bea8643693fc28497bd6ad3d8206e9fa"},
	{Name: "paranoia", File: "Paranoia.z5", MD5: "bae9ba79e584ccd0673e8ee850562035"},
	{Name: "ludite", File: "ludite.z5", MD5: "5c00c9753a69f0f200a026212a6d1c2e"},
	{Name: "minimalist", File: "The_Minimalist_Game.z5", MD5: "3b19ca2d5b211f75f88a14c7dbdd2006"},
	{Name: "passthemilk", File: "Fingertips-PleasePasstheMilkPlease.z8", MD5: "8c1d5939360084cb1ddb6a413fa5f7fe"},
	{Name: "forms", File: "forms.z5", MD5: "b4852ac4c00e4ce2d74efd35cae6b753"},
	{Name: "i0", File: "I-0.z5", MD5: "ded233e32455e9e40022c128916b45ad"},
	{Name: "peacock", File: "Peacock.z5", MD5: "38eb6eae52d22a20ca89a27cd88ab9b0"},
	{Name: "putpbad", File: "putpbad.z5", MD5: "bee55b4bdd4096119cc56dd68f13eb8f"},
	{Name: "service", File: "service.z5", MD5: "bc49bfde10df06d574cef218a158ce02"},
	{Name: "spot", File: "spot.z5", MD5: "bd6d1300d20e710a600eedf60604d7a9"},
	{Name: "library", File: "library.z5", MD5: "389acf3b617a40dc4848da3bda62ce06"},
	{Name: "loose", File: "loose.z5", MD5: "31a0c1e360dce94aa5bece5240691d17"},
	{Name: "lostpig", File: "lostpig.z8", MD5: "aaf0b90fbb31717481c02832bf412070"},
	{Name: "ludicorp", File: "ludicorp.z5", MD5: "646a63307f77dcdcd011f330277ae262"},
	{Name: "lurking", File: "lurking.z3", MD5: "5f42ff092a2f30471ae98150ef4da2e1"},
	{Name: "moonlit", File: "moonlit.z5", MD5: "bf75b9651cff0e2d04302f19c443588e"},
	{Name: "murdac", File: "murdac.z5", MD5: "570179d4f21b2f600862dbffbb5afc3e"},
	{Name: "night", File: "night.z5", MD5: "72125f159cccd581786ac16a2828d4e3"},
	{Name: "omniquest", File: "omniquest.z5", MD5: "80ea198bca425b6d819c74bfa854236e"},
	{Name: "partyfoul", File: "partyfoul.z8", MD5: "d221daa82708c4e54447f1a884c239ef"},
	{Name: "pentari", File: "pentari.z5", MD5: "f24c6863468823b744e910ccfe997c6d"},
	{Name: "planetfall", File: "planetfall.z3", MD5: "6487dc814b280f5603c53155de378d27"},
	{Name: "plundered", File: "plundered.z3", MD5: "29fc7b270af2fbd406a0548a8298da7f"},
	{Name: "reverb", File: "reverb.z5", MD5: "80d286fbfe624c621266b568c0076717"},
	{Name: "seastalker", File: "seastalker.z3", MD5: "ee339dbdbb0792f67e20bd71bafe0ea5"},
	{Name: "sherlock", File: "sherlock.z5", MD5: "35240654d83f9e7073973d338f9657b8"},
	{Name: "snacktime", File: "snacktime.z8", MD5: "0ff228d12d7cb470dc1a8e9a5151769b"},
	{Name: "sorcerer", File: "sorcerer.z3", MD5: "20f1468a058d0a6de016ae70022e651c"},
	{Name: "spellbrkr", File: "spellbrkr.z3", MD5: "7a92ce19a39bedd970d0f1e296981f71"},
	{Name: "spirit", File: "spirit.z5", MD5: "808039c4e9554bdd15d7793539b3bd97"},
	{Name: "temple", File: "temple.z5", MD5: "047842c7b25c3d477b728cf3412e33de"},
	{Name: "theatre", File: "theatre.z5", MD5: "33dcc5085acb290d1817e07653c13480"},
	{Name: "trinity", File: "trinity.z4", MD5: "3bf1a444a1fc2057130ecb9806117233"},
	{Name: "tryst205", File: "tryst205.z5", MD5: "fc65ad8d4588da92fd39871f6f7463db"},
	{Name: "weapon", File: "weapon.z5", MD5: "c632204be3849d6c5bb6f4eb5aca3cc0"},
	{Name: "wishbringer", File: "wishbringer.z3", MD5: "87ed53d854f7e57c36106fca3b9cf5a6"},
	{Name: "yomomma", File: "yomomma.z8", MD5: "5b10162a7a134e7b4c381ecedfb4bc44"},
	{Name: "zenon", File: "zenon.z5", MD5: "631cc926b4251f5a5f646d3a6bdac8c6"},
	{Name: "zork1", File: "zork1.z5", MD5: "b732a93a6244ddd92a9b9a3e3a46c687"},
	{Name: "zork2", File: "zork2.z5", MD5: "5bcd91ee055e9bd42812617571be227b"},
	{Name: "zork3", File: "zork3.z5", MD5: "ffda9ee2d428fa2fa8e75a1914ff6959"},
	{Name: "ztuu", File: "ztuu.z5", MD5: "d8e1578470cbc676e013e03d72c93141"},
}

// jerichoSeeds are the game-specific seeds TALES plays when no
// --game-seed is given (benchmark.py: "Seed for the game. Default:
// game-specific one."), which are Jericho's: microsoft/jericho
// jericho/game_info.py at commit 0571736084a833d04ebea8c4865feaa238c25e4f.
// Every game of that file is here (its dict's "name", its "seed"); the
// games TALES added since (lily, spot, kiiwii...) are not Jericho's and
// have no seed here: they are played from DefaultSeed and the run says
// so.
var jerichoSeeds = map[string]int64{
	"905":           0,
	"acorncourt":    4,
	"advent":        5,
	"adventureland": 4,
	"afflicted":     0,
	"anchor":        0,
	"awaken":        0,
	"balances":      0,
	"ballyhoo":      0,
	"curses":        0,
	"cutthroat":     10,
	"deephome":      0,
	"detective":     0,
	"dragon":        0,
	"enchanter":     0,
	"enter":         0,
	"gold":          0,
	"hhgg":          4,
	"hollywood":     0,
	"huntdark":      0,
	"infidel":       0,
	"inhumane":      0,
	"jewel":         0,
	"karn":          0,
	"library":       0,
	"loose":         0,
	"lostpig":       0,
	"ludicorp":      0,
	"lurking":       0,
	"moonlit":       0,
	"murdac":        0,
	"night":         0,
	"omniquest":     0,
	"partyfoul":     0,
	"pentari":       0,
	"planetfall":    0,
	"plundered":     0,
	"reverb":        0,
	"seastalker":    0,
	"sherlock":      0,
	"snacktime":     0,
	"sorcerer":      0,
	"spellbrkr":     0,
	"spirit":        0,
	"temple":        0,
	"theatre":       0,
	"trinity":       0,
	"tryst205":      0,
	"weapon":        0,
	"wishbringer":   0,
	"yomomma":       0,
	"zenon":         0,
	"zork1":         12,
	"zork2":         0,
	"zork3":         0,
	"ztuu":          0,
}

// textquestsSource is where TextQuests's rules were read.
const textquestsSource = "art-dsit/inspect_textquests: src/textquests/README.md (commit 18bcc2079e539af8b365be2e1b971a3b2354de90), " +
	"src/textquests/game_info.py (commit 26ab52d26817015ed786e5229608c6fea84984f1, copied from centerforaisafety/textquests src/game_info.py)"

// textquestsGames are TextQuests's 25 Infocom games and their maximum
// scores: MAX_SCORES in art-dsit/inspect_textquests
// src/textquests/game_info.py at commit
// 26ab52d26817015ed786e5229608c6fea84984f1. TextQuests plays files
// recompiled by the Jiminy Cricket project, from a dataset grue does not
// have: it lists no MD5, so a game is found by its file's name.
var textquestsGames = []Game{
	{Name: "ballyhoo", MaxScore: 205},
	{Name: "borderzone", MaxScore: 40},
	{Name: "cutthroats", MaxScore: 250},
	{Name: "deadline", MaxScore: 17},
	{Name: "enchanter", MaxScore: 400},
	{Name: "hitchhiker", MaxScore: 410},
	{Name: "hollywoodhijinx", MaxScore: 150},
	{Name: "infidel", MaxScore: 410},
	{Name: "lurkinghorror", MaxScore: 105},
	{Name: "moonmist", MaxScore: 23},
	{Name: "planetfall", MaxScore: 85},
	{Name: "plunderedhearts", MaxScore: 25},
	{Name: "seastalker", MaxScore: 105},
	{Name: "sherlock", MaxScore: 100},
	{Name: "sorcerer", MaxScore: 400},
	{Name: "spellbreaker", MaxScore: 600},
	{Name: "starcross", MaxScore: 400},
	{Name: "stationfall", MaxScore: 80},
	{Name: "suspect", MaxScore: 21},
	{Name: "trinity", MaxScore: 105},
	{Name: "wishbringer", MaxScore: 101},
	{Name: "witness", MaxScore: 14},
	{Name: "zork1", MaxScore: 360},
	{Name: "zork2", MaxScore: 410},
	{Name: "zork3", MaxScore: 8},
}

// agentboardSource is where AgentBoard's rules were read.
const agentboardSource = "hkust-nlp/AgentBoard: eval_configs/main_results_all_tasks.yaml (commit 2429689d1f94f625e3989900a6dfd48266c57bcf)"

// agentboardGames are AgentBoard's Jericho games: env.jericho.game_name
// in hkust-nlp/AgentBoard eval_configs/main_results_all_tasks.yaml at
// commit 2429689d1f94f625e3989900a6dfd48266c57bcf. AgentBoard plays the
// jericho-game-suite files and lists no MD5 of its own; grue identifies
// them by the MD5 TALES's games.json gives the same Jericho game (filled
// in by protocols()).
var agentboardGames = []string{"905", "acorncourt", "afflicted", "balances", "dragon", "jewel", "library", "omniquest", "reverb", "snacktime", "zenon", "zork1", "zork2", "zork3", "detective", "night", "pentari", "weapon", "huntdark", "loose"}
