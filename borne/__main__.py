from borne.cli import main

raise SystemExit(main())
