"""The write path: extract candidate memories from messages, judge them, reconcile them with the store."""
