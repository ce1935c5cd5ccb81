"""Class mode's interface: the state a browser session keeps (``state``), the join address and QR
code (``join``), the live views of the projector and the phones (``live``) and the results page
(``reports``). Their sentences and the results' files are made in ``tutor.render``
(``class_messages``, ``class_reports``); the two pages that use them are
``tutor/ui/pages/class_teacher.py`` and ``class_student.py``; the rules are in ``tutor.classroom``.
"""
