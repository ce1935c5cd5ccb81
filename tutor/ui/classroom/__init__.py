"""Class mode's interface: the state a browser session keeps (``state``), the join address and QR
code (``join``), the live views of the projector and the phones (``live``), the results and their
exports (``reports``), and the sentences they say (``messages``). The two pages that use them are
``tutor/ui/pages/class_teacher.py`` and ``class_student.py``; the rules are in ``tutor.classroom``.
"""
