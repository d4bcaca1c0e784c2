"""A toy module, the smallest that plugs in as every module of the game does (issue 25): its own
folder in the layout of `service/engine/modules/README.md` and one registration line. It adds an
end-of-turn step that waits for a decision (the end of the turn resumes after it), an
after-action observer, a scoring category, a majority bonus, and its own action (RULES.md has no
such module: its rule id is `toy.bow`). The tests register it with
`temporarily_registered(plugin.MODULE)` and play whole games with it (test_module_mechanism.py).
"""
