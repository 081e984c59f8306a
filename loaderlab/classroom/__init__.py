"""A workshop room: the teacher's view of what the room predicted (:mod:`.store`). Knows nothing of streamlit."""
