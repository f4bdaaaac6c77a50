"""Privacy: what may be kept about a user, how, and a record of what was done with it.

- ``sensitive``: find sensitive data (Chinese and English) and mask it before anything is stored;
- ``injection``: flag stored text that reads like an instruction to a model;
- ``policy``: drop, redact or encrypt each sensitive kind, and apply the user's consent to the judge;
- ``consent``: per-user settings (memory on/off, allowed categories);
- ``crypto`` and ``vault``: AES-GCM sealing of encrypted originals under a rotatable data key;
- ``audit``: the append-only audit log;
- ``controls`` and ``facade``: how :class:`memlane.Memory` applies all of the above.
"""
