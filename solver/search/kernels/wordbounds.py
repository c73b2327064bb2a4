"""The word search's bounds: what every valid grid reachable from a state satisfies, so a state
that breaks one is pruned (`solver.search.wordsearch`'s docstring explains each): the carrier-use
and letter-use bounds, the bound-tile groups, the hosts of the exclusive tiles. The search itself
(the board, the items, the decision loop) is in `wordsearch`.
"""

from __future__ import annotations

from solver.search.kernels.wordslots import (
    NO_DEPTH,
    NO_LETTERS,
    WS_GROUPS,
    WS_LEFT,
    WS_OPEN,
    WS_TILES,
    WS_WEIGHTS,
)
from solver.search.native import njit  # numba.njit, bound on first use (see native)


@njit(cache=True, nogil=True, _nrt=False)
def _ws_hopeless(s, words) -> bool:
    """The carrier-use and letter-use bounds of `solver.search.wordsearch`'s docstring."""
    left = s.state[WS_LEFT]
    _ws_count_letter_uses(s)  # (for `_ws_next_items` too, whatever this finds)
    s.state[WS_WEIGHTS] = 0
    if left == 0:
        return False
    uses = s.scratch[6]
    present = NO_LETTERS
    for letter in range(26):
        uses[letter] = 2 * s.hand[letter] if words.carrier[letter] == 1 else 0
        if s.hand[letter] > 0:
            present |= 1 << letter
    for t in range(s.state[WS_TILES]):
        cell = s.tiles[t]
        letter = s.board[cell] - 1
        present |= 1 << letter
        if words.carrier[letter] == 1:
            for direction in range(2):
                if s.status[cell, direction] == WS_OPEN:
                    uses[letter] += 1
    room = 0.0
    for letter in range(26):
        room += uses[letter] * words.rho[letter]
    if left > room + 1e-9 or _ws_letter_rooms_short(s, words, left):
        return True
    if _ws_bound_short(s, words, uses):
        return True
    # Again, as the hand left allows (dearer: only when the first did not prune).
    _ws_supplied_weights(s, words, uses, present)
    room = 0.0
    for letter in range(26):
        room += uses[letter] * s.rho_now[letter]
    if left > room + 1e-9:
        return True
    return not _ws_exclusive_tiles_hosted(s, words, NO_DEPTH)


@njit(cache=True, nogil=True, _nrt=False)
def _ws_count_letter_uses(s):
    """The state's uses left by letter (scratch[11]: two a tile of the hand, one an open
    direction of a tile on the board; then, from 26 on, the letters with uses, and their count
    at 52), counted once for the many rows of weights (`_ws_letter_room`)."""
    uses = s.scratch[11]
    for letter in range(26):
        uses[letter] = 2 * s.hand[letter]
    for t in range(s.state[WS_TILES]):
        cell = s.tiles[t]
        for direction in range(2):
            if s.status[cell, direction] == WS_OPEN:
                uses[s.board[cell] - 1] += 1
    count = 0
    for letter in range(26):
        if uses[letter] > 0:
            uses[26 + count] = letter
            count += 1
    uses[52] = count


@njit(cache=True, nogil=True, _nrt=False)
def _ws_letter_room(s, words, row) -> float:
    """The letter-use bound (`solver.search.wordsearch`) with the weights words.weight[row], on
    the uses `_ws_count_letter_uses` counted: a letter of weight >= 0 is charged all its uses,
    one of weight < 0 one use a tile of the hand (the fewest: every tile of the hand is in a
    word laid from now on) and none on the board."""
    uses = s.scratch[11]
    every = 0.0
    for i in range(26, 26 + uses[52]):
        letter = uses[i]
        w = words.weight[row, letter]
        every += (uses[letter] if w >= 0.0 else s.hand[letter]) * w
    return every


@njit(cache=True, nogil=True, _nrt=False)
def _ws_hand_room(hand, weight) -> float:
    """The hand's part of the letter room (`_ws_letter_room`): two uses a tile of a letter of
    weight >= 0, one of weight < 0."""
    every = 0.0
    for letter in range(26):
        w = weight[letter]
        every += (2 if w >= 0.0 else 1) * hand[letter] * w
    return every


@njit(cache=True, nogil=True, _nrt=False)
def _ws_letter_rooms_short(s, words, left) -> bool:
    """Whether the letter room (`_ws_letter_room`) of some row of words.weight (each such
    weights) falls short of the tiles left; if none does, state[WS_WEIGHTS] is the row with the
    least room: the one the state's lookahead and items use (`_ws_next_items`,
    `_ws_items_hopeless`)."""
    least = 0.0
    for row in range(words.weight.shape[0]):
        every = _ws_letter_room(s, words, row)
        if left > every + 1e-9:
            return True
        if row == 0 or every < least:
            least = every
            s.state[WS_WEIGHTS] = row
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _ws_bound_short(s, words, uses) -> bool:
    """The bound-tile bound (`solver.search.wordsearch`): counts each group's tiles in the hand
    and its carriers' uses (scratch[10]), and whether some group's uses, each laying at most
    `group_now` of its tiles, cannot lay them all."""
    row = s.scratch[10]
    for g in range(WS_GROUPS):
        row[g] = row[8 + g] = 0
    for letter in range(26):
        groups = words.letter_groups[letter]
        if groups != 0 and s.hand[letter] > 0:
            for g in range(WS_GROUPS):
                if (groups >> g) & 1:
                    row[g] += s.hand[letter]
        groups = words.carrier_groups[letter]
        if groups != 0 and uses[letter] > 0:
            for g in range(WS_GROUPS):
                if (groups >> g) & 1:
                    row[8 + g] += uses[letter]
    active = 0
    short = False
    for g in range(WS_GROUPS):
        if words.group_carriers[g] == 0:
            break
        if row[g] > 0:
            active |= 1 << g
            s.group_now[g] = _ws_supplied_bound(s.hand, words, g)
            if row[g] > row[8 + g] * s.group_now[g] + 1e-9:
                short = True
    row[26] = active
    return short


@njit(cache=True, nogil=True, _nrt=False)
def _ws_supplied_bound(hand, words, g) -> float:
    """group_cap[g] as the hand left allows: a word lays at most as many tiles of a letter as the
    hand holds. Looked at largest static ratio first, until none left can beat the best."""
    best = 0.0
    carriers = words.group_carriers[g]
    first = words.by_group_start[g]
    for i in range(first, words.by_group_start[g + 1]):
        word = words.by_group[i]
        bound = most = held = 0
        for j in range(words.length[word]):
            entry = words.tally[word, j]
            if entry < 0:
                break
            code, count = entry >> 5, entry & 31
            if (carriers >> code) & 1:
                held += count
            elif (words.letter_groups[code] >> g) & 1:
                most += count
                bound += min(count, hand[code])
        if most / held <= best:
            break  # (the words after it hold no more per carrier tile)
        if i - first == SUPPLY_SCAN:
            return most / held  # a bound on every word not looked at
        if bound / held > best:
            best = bound / held
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _ws_bound_spent(s, need) -> bool:
    """Whether laying a word (need[26 + g]: the new tiles of group g it lays; need[34 + g]: the
    tiles of g's carriers it holds, each taking a use), or leaving a carrier tile alone one way
    (need[34 + g] = 1 for its groups), leaves some group's uses short of its tiles: the
    lookahead for `_ws_bound_short`."""
    row = s.scratch[10]
    active = row[26]
    for g in range(WS_GROUPS):
        if active >> g == 0:
            break
        if (active >> g) & 1:
            room = (row[8 + g] - need[34 + g]) * s.group_now[g]
            if row[g] - need[26 + g] > room + 1e-9:
                return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _ws_group_fit(s, words, need, word, left, bound_groups, cell_groups, depth, k) -> bool:
    """For `_ws_add_item`, a word that fits (need[letter]: the new tiles of each letter it
    lays): counts its groups' new tiles and carrier tiles, whether it keeps the bound-tile
    bound (`_ws_bound_spent`), and if so raises its item's `item_bound`s."""
    for j in range(words.length[word]):
        entry = words.tally[word, j]
        if entry < 0:
            break
        code, count = entry >> 5, entry & 31
        groups = words.carrier_groups[code] & bound_groups
        g = 0
        while groups >> g:
            need[34 + g] += count * ((groups >> g) & 1)  # the uses of g's carriers it takes
            g += 1
        groups = words.letter_groups[code] & bound_groups
        g = 0
        while groups >> g:
            need[26 + g] += need[code] * ((groups >> g) & 1)  # the tiles of group g it lays
            g += 1
    fits = left <= 0 or not _ws_bound_spent(s, need)
    g = 0
    while bound_groups >> g:
        if fits and (cell_groups >> g) & 1 and need[26 + g] > s.item_bound[depth, k, g] * need[34 + g]:
            s.item_bound[depth, k, g] = need[26 + g] / need[34 + g]
        need[26 + g] = need[34 + g] = 0
        g += 1
    return fits


@njit(cache=True, nogil=True, _nrt=False)
def _ws_items_bound_short(s, words, depth) -> bool:
    """`_ws_bound_short` once depth's items are listed: a use on the board takes at most its
    item's `item_bound` (scratch[10] is this state's, from `_ws_hopeless`)."""
    active = s.scratch[10, 26]
    for g in range(WS_GROUPS):
        if active >> g == 0:
            break
        if not (active >> g) & 1:
            continue
        carriers = words.group_carriers[g]
        room = 0.0
        for letter in range(26):
            if (carriers >> letter) & 1:
                room += 2 * s.hand[letter] * s.group_now[g]
        for k in range(s.items[depth]):
            if (carriers >> (s.board[s.item_cell[depth, k]] - 1)) & 1:
                room += s.item_bound[depth, k, g]
        if s.scratch[10, g] > room + 1e-9:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _ws_items_hopeless(s, words, depth) -> bool:
    """The carrier-use bound again once depth's items are listed: a word laid through a carrier
    tile on the board is one of the options of that tile's item, so that use is charged at most
    the item's `item_share` (the options that fit now are all it can ever have; the word's new
    carrier tiles pay the rest at their weights), not its weight; the carriers in the hand keep
    `rho_now`. The letter-use bound likewise: a use on the board is charged its item's
    `item_excess`, the new tiles an option lays being paid for by their letters' weights."""
    left = s.state[WS_LEFT]
    weight = words.weight[s.weight_row[depth]]  # the row item_excess is charged by
    room = 0.0
    every = _ws_hand_room(s.hand, weight)
    for letter in range(26):
        room += 2 * s.hand[letter] * s.rho_now[letter]
    for k in range(s.items[depth]):
        every += s.item_excess[depth, k]
        if words.carrier[s.board[s.item_cell[depth, k]] - 1] == 1:
            room += s.item_share[depth, k]
    if left > room + 1e-9 or left > every + 1e-9 or (left > 0 and _ws_items_bound_short(s, words, depth)):
        return True
    return not _ws_exclusive_tiles_hosted(s, words, depth)


SUPPLY_SCAN = 16  # words of a carrier's list looked at, at most: past them the next one's share bounds the rest


@njit(cache=True, nogil=True, _nrt=False)
def _ws_supplied_rho(hand, words, carrier, present) -> float:
    """The first step of `_ws_supplied_weights`, for one carrier: the most new tiles per carrier
    tile over the words holding `carrier` and no other carrier letter, as the hand left allows:
    a word laid from here on lays new tiles only from the hand, so at most as many as the hand
    supplies of its letters (and none if it needs a letter neither the hand nor the board
    holds). Looked at largest static share first, it stops as soon as no word left can beat
    the best. Never above `words.rho[carrier]`."""
    best = 0.0
    first, last = words.by_share_start[carrier], words.by_share_start[carrier + 1]
    for i in range(first, last):
        word = words.by_share[i]
        share = words.share[word]
        if share <= best:
            break
        if i - first == SUPPLY_SCAN:
            return share  # a bound on every word not looked at
        if words.mask[word] & ~present:
            continue
        length = words.length[word]
        supply = 0
        for j in range(length):
            entry = words.tally[word, j]
            if entry < 0:
                break
            supply += min(entry & 31, hand[entry >> 5])
        if supply < length - 1:
            share = share * supply / (length - 1)
        if share > best:
            best = share
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _ws_supplied_weights(s, words, uses, present):
    """rho_now: the carriers' weights as the hand left allows. Each carrier with uses left first
    gets the most a word holding it and no other carrier letter lays per carrier tile
    (`_ws_supplied_rho`); then each word holding two carrier letters or more, all with uses left,
    whose carrier tiles weigh less than the new tiles it can lay (min(length - 1, tiles the hand
    supplies of its letters)) raises each of its carriers to its even share of them. So every
    word that can still be laid weighs at least its new tiles (what the room bounds need), and a
    carrier that only ever comes with another (M of MM beside the Ys of GYMS) weighs little."""
    hand, carrier, rho_now = s.hand, words.carrier, s.rho_now
    for letter in range(26):
        rho_now[letter] = 0.0
        if uses[letter] > 0:
            rho_now[letter] = _ws_supplied_rho(hand, words, letter, present)
    for pattern in range(len(words.mixed_start) - 1):
        first, last = words.mixed_start[pattern], words.mixed_start[pattern + 1]
        weight = 0.0
        carried = 0
        usable = True
        for j in range(words.length[words.mixed[first]]):  # the pattern's carrier tiles: its first word's
            entry = words.tally[words.mixed[first], j]
            if entry < 0:
                break
            code, count = entry >> 5, entry & 31
            if carrier[code] == 1:
                usable = usable and uses[code] > 0
                weight += count * rho_now[code]
                carried += count
        if not usable or words.length[words.mixed[first]] - 1 <= weight + 1e-9:
            continue
        laid = 0  # the most new tiles a word of the pattern lays, as the hand supplies them
        for i in range(first, last):
            word = words.mixed[i]
            if words.length[word] - 1 <= max(laid, weight):
                break  # (the words after it are no longer)
            if i - first == SUPPLY_SCAN:
                laid = words.length[word] - 1  # a bound on every word not looked at
                break
            supply = 0
            for j in range(words.length[word]):
                entry = words.tally[word, j]
                if entry < 0:
                    break
                supply += min(entry & 31, hand[entry >> 5])
            laid = max(laid, min(words.length[word] - 1, supply))
        if laid <= weight + 1e-9:
            continue
        for j in range(words.length[words.mixed[first]]):
            code = words.tally[words.mixed[first], j] >> 5
            if words.tally[words.mixed[first], j] >= 0 and carrier[code] == 1 and rho_now[code] < laid / carried:
                rho_now[code] = laid / carried


@njit(cache=True, nogil=True, _nrt=False)
def _ws_list_host_uses(s, words):
    """For `_ws_hosts_short`: the hand's non-carrier letters with hosts (scratch[8], then -1),
    the carrier uses left of each one's hosts (scratch[9], by letter) and the least slack
    (uses - words needed) over them (scratch[9, 26]): a word with no more carrier tiles than
    that cannot leave any letter short."""
    count = 0
    slack = 1 << 40
    for letter in range(26):
        if s.hand[letter] > 0 and words.carrier[letter] == 0 and words.hosts[letter] != 0:
            uses = 0
            for carrier in range(26):
                if (words.hosts[letter] >> carrier) & 1:
                    uses += s.scratch[6, carrier]
            s.scratch[9, letter] = uses
            s.scratch[8, count] = letter
            count += 1
            slack = min(slack, uses - (1 if (words.together[letter] >> letter) & 1 else s.hand[letter]))
    s.scratch[8, count] = -1
    s.scratch[9, 26] = slack


@njit(cache=True, nogil=True, _nrt=False)
def _ws_hosts_short(s, words, word, laid, taken) -> bool:
    """Whether laying `word` (its new tiles counted in `laid`), or with `word` -1 leaving a tile
    of carrier `taken` alone one way, leaves a letter of the hand fewer uses of its hosts than
    the words it still needs: each tile of it needs a word of its own (one word, if some word
    holds the letter twice), each such word a use of a host, and each carrier tile of `word`
    takes a use. A lookahead for `_ws_exclusive_tiles_hosted`, one letter at a time."""
    for i in range(26):
        letter = s.scratch[8, i]
        if letter < 0:
            return False
        tiles = s.hand[letter] - laid[letter]
        if tiles <= 0:
            continue
        needed = 1 if (words.together[letter] >> letter) & 1 else tiles
        uses = s.scratch[9, letter]
        if word < 0:
            uses -= (words.hosts[letter] >> taken) & 1
        else:
            for j in range(words.length[word]):
                other = words.letters[word, j]
                if words.carrier[other] == 1 and (words.hosts[letter] >> other) & 1:
                    uses -= 1
        if uses < needed:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _ws_exclusive_tiles_hosted(s, words, depth) -> bool:
    """Tiles of the hand no word holds two of (taken greedily, hardest letters first) each need
    a word of their own, and that word a carrier use of one of their letter's hosts: whether
    the carrier uses left can be matched to them (Kuhn's augmenting paths). With `depth` >= 0,
    once its items are listed, a use on the board is its tile's item, and a word through it one
    of the item's options (they only drop out deeper down): it takes only the tiles whose letter
    one of them holds (`item_mask`)."""
    scratch = s.scratch
    members = scratch[0]  # letters of the exclusive tiles
    count = 0
    taken = 0  # letters already in the set
    for i in range(26):
        letter = words.hard_order[i]
        if letter < 0:
            break
        for _ in range(s.hand[letter]):
            if words.together[letter] & taken:  # some word holds both (or this letter twice)
                break
            members[count] = letter
            count += 1
            taken |= 1 << letter
    if count == 0:
        return True
    slots, takes = scratch[1], scratch[7]  # the carrier letter of each use left, the letters it may take
    used = 0
    for letter in range(26):
        if words.carrier[letter] == 1:
            for _ in range(2 * s.hand[letter]):
                if used < len(slots):
                    slots[used], takes[used] = letter, -1
                    used += 1
    if depth >= 0:
        for k in range(s.items[depth]):
            letter = s.board[s.item_cell[depth, k]] - 1
            if words.carrier[letter] == 1 and used < len(slots):
                slots[used], takes[used] = letter, s.item_mask[depth, k]
                used += 1
    else:
        for t in range(s.state[WS_TILES]):
            cell = s.tiles[t]
            letter = s.board[cell] - 1
            if words.carrier[letter] == 1:
                for direction in range(2):
                    if s.status[cell, direction] == WS_OPEN and used < len(slots):
                        slots[used], takes[used] = letter, -1
                        used += 1
    if used < count:
        return False
    owner, seen, stack, slot_at = scratch[2], scratch[3], scratch[4], scratch[5]
    owner[:used] = -1
    for member in range(count):
        seen[:used] = 0
        depth = 0
        stack[0], slot_at[0] = member, 0
        found = False
        while depth >= 0 and not found:
            m = stack[depth]
            advanced = False
            while slot_at[depth] < used:
                j = slot_at[depth]
                slot_at[depth] += 1
                if seen[j] or not (words.hosts[members[m]] >> slots[j]) & 1 or not (takes[j] >> members[m]) & 1:
                    continue
                seen[j] = 1
                if owner[j] == -1:  # a free use: each member on the path takes the use it tried last
                    for d in range(depth + 1):
                        owner[slot_at[d] - 1] = stack[d]
                    found = True
                    break
                depth += 1
                stack[depth], slot_at[depth] = owner[j], 0
                advanced = True
                break
            if not advanced and not found:
                depth -= 1
        if not found:
            return False
    return True
