"""Entities and aliases: which entity a name means for one user, and declared merges
(logged, undoable). A merge refolds the user's beliefs: ids are content hashes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from .checks import FIRST_PERSON, check_id, check_text, require_user
from .errors import InvalidInputError, NotFoundError
from .ids import normalise_key, stable_id
from .writing import refold_user

if TYPE_CHECKING:
    from .memory import BeliefMemory


def resolve_entity(memory: "BeliefMemory", user_id: str, name: str, create: bool = False) -> str | None:
    """The canonical entity id for a name as this user refers to it."""
    user_id = require_user(user_id)
    key = alias_key(user_id, name)
    entity_id = memory.store.get_alias(user_id, key)
    if entity_id is None:
        if not create:
            return None
        entity_id = stable_id("ent", user_id, key)
        is_user = key == normalise_key(user_id)
        memory.store.insert_node(
            "entity", dict(id=entity_id, user_id=user_id, name=user_id if is_user else name.strip(),
                           entity_type="user" if is_user else "thing", canonical_id=None)
        )
        memory.store.set_alias(user_id, key, entity_id)
        memory.names.added(user_id, None if is_user else name.strip())
        return entity_id
    return canonical_id(memory, entity_id)


def alias_key(user_id: str, name: str) -> str:
    """The alias key a name is looked up by for this user (the user's own for "I", "me", "我")."""
    key = normalise_key(check_text(name, "entity name", 1000))
    if not key:
        raise InvalidInputError("entity name must not be empty")
    return normalise_key(user_id) if key in FIRST_PERSON else key


def known_forms(memory: "BeliefMemory", user_id: str, forms: Sequence[str]) -> list[str]:
    """The forms, in order, that name something of this user (a name or an alias): one
    look-up for all, where ``resolve_entity`` is one per form (an organisation's guessed
    forms are dozens: "Orla" -> "Orla Foods", "Orla Labs", ...)."""
    keys = {f: normalise_key(f) for f in forms}
    known = {key for key, _ in memory.store.aliases_among(user_id, [k for k in keys.values() if k])} if keys else set()
    return [f for f in forms if keys[f] in known]


def canonical_id(memory: "BeliefMemory", entity_id: str) -> str:
    return follow_merges(entity_id, lambda i: memory.store.get_node("entity", i))


def follow_merges(entity_id: str, entity: Callable[[str], dict | None]) -> str:
    """The entity that ``entity_id`` was merged into, if any (merges chain), read by ``entity``."""
    seen = set()
    while entity_id not in seen:
        seen.add(entity_id)
        row = entity(entity_id)
        if row is None or not row["canonical_id"]:
            return entity_id
        entity_id = row["canonical_id"]
    return entity_id


def entity(memory: "BeliefMemory", entity_id: str) -> dict:
    row = memory.store.get_node("entity", check_id(entity_id, "entity_id"))
    if row is None:
        raise NotFoundError(f"no entity {entity_id!r}")
    return dict(row, aliases=memory.store.aliases_of(entity_id))


def add_alias(memory: "BeliefMemory", user_id: str, alias: str, canonical: str, *, actor: str = "api") -> int | None:
    """Declare that ``alias`` names the same entity as ``canonical`` for this user.
    Logged; returns the merge id for ``undo_merge`` (None when already so)."""
    user_id = require_user(user_id)
    check_text(alias, "alias", 1000)
    check_text(canonical, "canonical name", 1000)
    with memory.store.transaction():
        target = resolve_entity(memory, user_id, canonical, create=True)
        key = normalise_key(alias)
        if not key:
            raise InvalidInputError("alias must not be empty")
        previous = memory.store.get_alias(user_id, key)
        if previous is not None and canonical_id(memory, previous) == target:
            return None
        memory.store.set_alias(user_id, key, target)
        if previous is not None:
            memory.store.set_canonical(previous, target)
        merge_id = memory.store.append_audit(
            dict(at=memory.clock(), action="alias_merge", target=target, user_id=user_id, actor=actor,
                 reason=f"{alias!r} -> {canonical!r}", detail=dict(alias=key, previous=previous, entity=target))
        )
        if previous is not None:  # a new name alone changes no belief: nothing resolved through it yet
            refold_user(memory, user_id)
        return merge_id


def name_relatives(memory: "BeliefMemory", user_id: str, kin: Sequence[tuple[str, str]]) -> None:
    """Record who the user's relatives are by name ("my sister Ana": "<user>'s sister" is an
    alias of Ana), so that "where does my sister live?" finds Ana's beliefs. Only a relation
    not named yet: the first name given stands (two sisters are told apart by name). What was
    said of "my sister" before she was named is hers too (a merge): had the name come first,
    it would have been filed under her, and beliefs must not depend on arrival order."""
    for relation, name in kin:
        alias = f"{user_id}'s {relation}"
        known = memory.store.get_alias(user_id, normalise_key(alias))
        if known is None or _named_by(memory, canonical_id(memory, known), alias):
            add_alias(memory, user_id, alias, name, actor="extractor")


def _named_by(memory: "BeliefMemory", entity_id: str, phrase: str) -> bool:
    """Whether the entity has no name but ``phrase`` ("u1's sister": made when she was spoken of)."""
    row = memory.store.get_node("entity", entity_id)
    return row is not None and normalise_key(row["name"]) == normalise_key(phrase)


def undo_merge(memory: "BeliefMemory", merge_id: int, *, actor: str = "api") -> None:
    if isinstance(merge_id, bool) or not isinstance(merge_id, int):
        raise InvalidInputError(f"merge_id must be the int add_alias returned, got {merge_id!r:.80}")
    entries = [a for a in memory.store.audit(action="alias_merge") if a["id"] == merge_id]
    if not entries:
        raise NotFoundError(f"no alias merge {merge_id}")
    entry = entries[0]
    if memory.store.audit(action="alias_undo", target=str(merge_id)):
        return
    d = entry["detail"]
    with memory.store.transaction():
        memory.store.set_alias(entry["user_id"], d["alias"], d["previous"])
        if d["previous"] is not None:
            memory.store.set_canonical(d["previous"], None)
        memory.store.append_audit(
            dict(at=memory.clock(), action="alias_undo", target=str(merge_id), user_id=entry["user_id"], actor=actor,
                 reason=f"undo merge {merge_id}", detail=dict(alias=d["alias"]))
        )
        refold_user(memory, entry["user_id"])
