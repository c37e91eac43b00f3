#include "builtin_words.h"

/* Word lists, filled line by line: clang-format would set them one column per word. */
/* clang-format off */

const char *const pl_builtin_neutral[] = {
    "the", "a", "and", "of", "to", "is", "in", "it", "this", "that", "i", "was", "as", "with",
    "for", "movie", "but", "film", "on", "not", "you", "are", "his", "have", "be", "he", "one",
    "at", "all", "by", "an", "they", "who", "so", "from", "like", "her", "just", "or", "about",
    "has", "if", "out", "what", "some", "there", "more", "when", "very", "up", "no", "time",
    "she", "even", "my", "would", "which", "story", "only", "really", "see", "their", "had",
    "can", "were", "me", "we", "than", "much", "well", "get", "been", "also", "into", "people",
    "other", "do", "will", "first", "because", "how", "him", "most", "made", "its", "then", "way",
    "make", "them", "could", "too", "any", "after", "characters", "think", "watch", "two",
    "films", "character", "seen", "many", "being", "never", "plot", "acting", "life", "did",
    "know", "where", "over", "little", "show", "ever", "does", "your", "off", "here", "end",
    "man", "still", "scene", "these", "say", "scenes", "why", "while", "something", "such", "go",
    "through", "should", "back", "those", "real", "now", "watching", "thing", "years", "director",
    "though", "actors", "doesn't", "another", "actually", "nothing", "makes", "didn't", "new",
    "work", "before", "old", "find", "same", "few", "part", "lot", "again", "cast", "world",
    "every", "going", "look", "things", "quite", "want", "around", "seems", "pretty", "young",
    "got", "down", "can't", "enough", "horror", "both", "between", "series", "take", "fact",
    "give", "own", "thought", "original", "big", "without", "gets", "may", "long", "right",
    "always", "point", "whole", "must", "role", "saw", "come", "almost", "least", "done", "times",
    "bit", "action", "music", "feel", "might", "script", "far", "minutes", "anything", "since",
    "guy", "am", "last", "family", "probably", "comedy", "tv", "kind", "interesting", "away",
    "yet", "worth", "sure", "anyone", "woman", "rather", "girl", "day", "played", "fans",
    "making", "trying", "screen", "hard", "found", "each", "although", "especially", "course",
    "believe", "goes", "shows", "looking", "having", "place", "set", "ending", "dvd", "sense",
    "different", "comes", "three", "money", "put", "maybe", "everything", "war", "year", "true",
    "once", "book", "someone", "job", "watched", "reason", "main", "everyone", "together", "john",
    "said", "plays", "instead", "during", "takes", "audience", "special", "seem", "actor",
    "american", "later", "himself", "night", "high", "let", "simply", "version", "shot", "half",
    "effects", "else", "death", "black", "house", "play", "completely", "used", "mind", "budget",
    "father", "seeing", "help", "wife", "men", "second", "home", "camera", "along", "kids",
    "nice", "short", "given", "less", "either", "rest", "top", "production", "line", "star",
    "friends", "use", "women", "episode", "need", "classic", "tell", "read", "truly", "hollywood",
    "try", "full", "until", "school", "low", "video", "boy", "getting", "next", "recommend",
    "couldn't", "small", "sex", "often", "mean", "stars", "moments", "understand", "human",
    "wasn't", "start", "went", "person", "face", "came", "certainly", "itself", "perhaps",
    "couple", "keep", "entire", "felt", "live", "doing", "dialogue", "mother", "early", "others",
    "friend", "head", "name", "lines", "playing", "stupid", "case", "absolutely", "piece", "hope",
    "style", "problem", "against", "already", "lives", "several", "sort", "children", "wonder",
    "written", "oh", "including", "title", "supposed", "liked", "white", "under", "son",
    "picture", "becomes", "totally", "based", "finally", "waste", "laugh", "lead", "called",
    "despite", "mr", "entertaining", "evil", "throughout", "hour", "strong", "viewer",
    "direction", "wants", "kill", "quality", "lost", "days", "game", "dark", "turn", "guess",
    "side", "example", "age", "killer", "beginning", "fine", "tries", "town", "unfortunately",
    "humor", "turns", "history", "heart", "flick", "child", "expect", "seemed", "police", "able",
    "amount", "deal", "obviously", "past", "involved", "city", "gives", "close", "hero", "matter",
    "genre", "leave", "behind", "wanted", "words", "feeling", "clearly", "thinking", "voice",
    "brother", "stuff", "told", "killed", "extremely", "coming", "chance", "run", "daughter",
    "car", "lack", "today", "ok", "except", "happens", "heard", "known", "attempt", "song",
    "obvious", "took", "slow", "experience"
};
const int pl_builtin_n_neutral = (int)(sizeof pl_builtin_neutral / sizeof pl_builtin_neutral[0]);

const char *const pl_builtin_positive[] = {
    "great", "excellent", "wonderful", "best", "love", "loved", "beautiful", "brilliant",
    "perfect", "superb", "amazing", "enjoyable", "favorite", "fantastic", "masterpiece",
    "touching", "delightful", "charming", "moving", "outstanding", "fun", "powerful", "gripping",
    "stunning", "hilarious", "memorable", "haunting", "terrific", "engaging", "recommended",
    "enjoyed", "refreshing", "heartwarming", "flawless", "captivating", "sincere", "clever",
    "witty", "gorgeous", "remarkable", "tender", "inspiring", "magnificent"
};
const int pl_builtin_n_positive = (int)(sizeof pl_builtin_positive / sizeof pl_builtin_positive[0]);

const char *const pl_builtin_negative[] = {
    "bad", "worst", "awful", "terrible", "boring", "poor", "horrible", "dull", "worse",
    "pointless", "mess", "lame", "disappointing", "ridiculous", "annoying", "weak", "unfunny",
    "laughable", "tedious", "predictable", "mediocre", "badly", "dreadful", "pathetic", "garbage",
    "forgettable", "bland", "clumsy", "incoherent", "painful", "cheap", "wooden", "overlong",
    "pretentious", "sloppy", "shallow", "tiresome", "unwatchable", "insulting", "lifeless"
};
const int pl_builtin_n_negative = (int)(sizeof pl_builtin_negative / sizeof pl_builtin_negative[0]);
/* clang-format on */
