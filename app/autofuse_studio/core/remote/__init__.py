"""Remote build hosts: profiles and ssh/scp argv builders."""
